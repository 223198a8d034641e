package metrics

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/store"
)

// StoreOps names the operations Store times: each method of store.Store,
// in snake case (AddMove is add_move), the op label of
// magneton_db_duration_seconds.
var StoreOps = []string{
	"create_game",
	"create_rematch",
	"game",
	"moves",
	"update_game",
	"add_move",
	"take_back",
	"list",
	"unfinished",
	"player_games",
	"plays_position",
	"beat",
	"last_beat",
	"acquire_lease",
	"held_leases",
	"lease_owner",
	"release_lease",
	"orphans",
	"ownerless",
	"notify",
	"listen",
	"create_user",
	"user_by_name",
	"user_by_i_d",
	"set_password",
	"claim_guest_games",
	"create_session",
	"session_user",
	"delete_sessions",
	"ratings",
	"rating",
	"rating_history",
	"leaderboard",
	"user_games",
	"user_record",
	"rate_game",
	"add_chat",
	"chat",
	"start_review",
	"save_review",
	"review",
	"puzzle_ratings",
	"attempted",
	"rate_puzzle",
	"add_puzzle_play",
	"puzzle_plays",
	"learn_progress",
	"add_learn_progress",
	"learn_stars",
	"add_learn_stars",
	"ping",
	"close",
	"rated_between",
	"standing",
	"set_standing",
	"add_report",
	"reports",
	"report",
	"close_report",
	"block",
	"unblock",
	"blocks",
	"blocked",
	"log_action",
	"mod_log",
	"seen",
	"shared",
	"rated_games",
	"void_game",
	"set_email",
	"users_by_email",
	"sessions",
	"touch_session",
	"end_session",
	"end_other_sessions",
	"create_reset",
	"use_reset",
	"account_data",
	"delete_user",
	"is_bot",
	"make_bot",
	"create_token",
	"tokens",
	"revoke_token",
	"token_user",
	"touch_token",
	"create_challenge",
	"challenge",
	"decline_challenge",
	"challenges_to",
	"explorer_moves",
	"repertoire_moves",
	"search_games",
	"import_games",
	"import_records",
	"archive_games",
	"clear_archive",
	"index_games",
	"archive_counts",
	"dump_archive",
	"merge_archive",
	"archive_merge_stats",
	"set_archive_indexer",
	"unarchived",
	"set_index_error_handler",
}

// Store is st with each call timed by m (magneton_db_duration_seconds,
// by operation): the store the server's packages get, so that no package
// of the store knows of monitoring. A nil *Metrics returns st.
func (m *Metrics) Store(st store.Store) store.Store {
	if m == nil {
		return st
	}
	return Timed(st, m.observeDB)
}

// Timed is st with each call's time, errors included, told to observe
// with the call's operation (one of StoreOps). observe is called as each
// call returns, from many goroutines; it must be cheap and safe for
// concurrent use.
func Timed(st store.Store, observe func(op string, d time.Duration)) store.Store {
	return timed{st: st, observe: observe}
}

// timed is the store of Timed.
type timed struct {
	st      store.Store
	observe func(op string, d time.Duration)
}

// since observes a call of op that began at start; deferred, it runs when
// the call returns, or panics.
func (t timed) since(op string, start time.Time) { t.observe(op, time.Since(start)) }

func (t timed) CreateGame(ctx context.Context, g *store.Game) error {
	defer t.since("create_game", time.Now())
	return t.st.CreateGame(ctx, g)
}

func (t timed) CreateRematch(ctx context.Context, old, next *store.Game) error {
	defer t.since("create_rematch", time.Now())
	return t.st.CreateRematch(ctx, old, next)
}

func (t timed) Game(ctx context.Context, id string) (*store.Game, error) {
	defer t.since("game", time.Now())
	return t.st.Game(ctx, id)
}

func (t timed) Moves(ctx context.Context, id string) ([]store.Move, error) {
	defer t.since("moves", time.Now())
	return t.st.Moves(ctx, id)
}

func (t timed) UpdateGame(ctx context.Context, g *store.Game) error {
	defer t.since("update_game", time.Now())
	return t.st.UpdateGame(ctx, g)
}

func (t timed) AddMove(ctx context.Context, g *store.Game, m store.Move) error {
	defer t.since("add_move", time.Now())
	return t.st.AddMove(ctx, g, m)
}

func (t timed) TakeBack(ctx context.Context, g *store.Game, fromPly int) error {
	defer t.since("take_back", time.Now())
	return t.st.TakeBack(ctx, g, fromPly)
}

func (t timed) List(ctx context.Context, q store.Query) ([]*store.Game, error) {
	defer t.since("list", time.Now())
	return t.st.List(ctx, q)
}

func (t timed) Unfinished(ctx context.Context) ([]*store.Game, error) {
	defer t.since("unfinished", time.Now())
	return t.st.Unfinished(ctx)
}

func (t timed) PlayerGames(ctx context.Context, userID, guestHash string) ([]*store.Game, error) {
	defer t.since("player_games", time.Now())
	return t.st.PlayerGames(ctx, userID, guestHash)
}

func (t timed) PlaysPosition(ctx context.Context, position, userID, guestHash string) (bool, error) {
	defer t.since("plays_position", time.Now())
	return t.st.PlaysPosition(ctx, position, userID, guestHash)
}

func (t timed) Beat(ctx context.Context, instance string, at int64) error {
	defer t.since("beat", time.Now())
	return t.st.Beat(ctx, instance, at)
}

func (t timed) LastBeat(ctx context.Context, instance string) (int64, error) {
	defer t.since("last_beat", time.Now())
	return t.st.LastBeat(ctx, instance)
}

func (t timed) AcquireLease(ctx context.Context, game, instance string, deadBefore int64) (owner, previous string, err error) {
	defer t.since("acquire_lease", time.Now())
	return t.st.AcquireLease(ctx, game, instance, deadBefore)
}

func (t timed) HeldLeases(ctx context.Context, instance string) ([]string, error) {
	defer t.since("held_leases", time.Now())
	return t.st.HeldLeases(ctx, instance)
}

func (t timed) LeaseOwner(ctx context.Context, game string) (owner string, lastBeat int64, err error) {
	defer t.since("lease_owner", time.Now())
	return t.st.LeaseOwner(ctx, game)
}

func (t timed) ReleaseLease(ctx context.Context, game, instance string) error {
	defer t.since("release_lease", time.Now())
	return t.st.ReleaseLease(ctx, game, instance)
}

func (t timed) Orphans(ctx context.Context, deadBefore int64) ([]string, error) {
	defer t.since("orphans", time.Now())
	return t.st.Orphans(ctx, deadBefore)
}

func (t timed) Ownerless(ctx context.Context, deadBefore int64) ([]string, error) {
	defer t.since("ownerless", time.Now())
	return t.st.Ownerless(ctx, deadBefore)
}

func (t timed) Notify(ctx context.Context, channel, payload string) error {
	defer t.since("notify", time.Now())
	return t.st.Notify(ctx, channel, payload)
}

func (t timed) Listen(ctx context.Context, channels ...string) (<-chan store.Notification, error) {
	defer t.since("listen", time.Now())
	return t.st.Listen(ctx, channels...)
}

func (t timed) CreateUser(ctx context.Context, u *store.User) error {
	defer t.since("create_user", time.Now())
	return t.st.CreateUser(ctx, u)
}

func (t timed) UserByName(ctx context.Context, name string) (*store.User, error) {
	defer t.since("user_by_name", time.Now())
	return t.st.UserByName(ctx, name)
}

func (t timed) UserByID(ctx context.Context, id string) (*store.User, error) {
	defer t.since("user_by_i_d", time.Now())
	return t.st.UserByID(ctx, id)
}

func (t timed) SetPassword(ctx context.Context, userID, password string) error {
	defer t.since("set_password", time.Now())
	return t.st.SetPassword(ctx, userID, password)
}

func (t timed) ClaimGuestGames(ctx context.Context, guestHash string, u *store.User) (int, error) {
	defer t.since("claim_guest_games", time.Now())
	return t.st.ClaimGuestGames(ctx, guestHash, u)
}

func (t timed) CreateSession(ctx context.Context, tokenHash, userID, agent string, at int64) error {
	defer t.since("create_session", time.Now())
	return t.st.CreateSession(ctx, tokenHash, userID, agent, at)
}

func (t timed) SessionUser(ctx context.Context, tokenHash string, createdAfter int64) (*store.User, error) {
	defer t.since("session_user", time.Now())
	return t.st.SessionUser(ctx, tokenHash, createdAfter)
}

func (t timed) DeleteSessions(ctx context.Context, userID, tokenHash string) error {
	defer t.since("delete_sessions", time.Now())
	return t.st.DeleteSessions(ctx, userID, tokenHash)
}

func (t timed) Ratings(ctx context.Context, userID string) ([]store.Rating, error) {
	defer t.since("ratings", time.Now())
	return t.st.Ratings(ctx, userID)
}

func (t timed) Rating(ctx context.Context, userID, game, family string) (store.Rating, bool, error) {
	defer t.since("rating", time.Now())
	return t.st.Rating(ctx, userID, game, family)
}

func (t timed) RatingHistory(ctx context.Context, userID string) ([]store.RatingPoint, error) {
	defer t.since("rating_history", time.Now())
	return t.st.RatingHistory(ctx, userID)
}

func (t timed) Leaderboard(ctx context.Context, game, family string, maxRD float64, limit int) ([]store.Leader, error) {
	defer t.since("leaderboard", time.Now())
	return t.st.Leaderboard(ctx, game, family, maxRD, limit)
}

func (t timed) UserGames(ctx context.Context, userID, before string, limit int, publicOnly bool) ([]*store.Game, error) {
	defer t.since("user_games", time.Now())
	return t.st.UserGames(ctx, userID, before, limit, publicOnly)
}

func (t timed) UserRecord(ctx context.Context, userID string) (wins, draws, losses int, err error) {
	defer t.since("user_record", time.Now())
	return t.st.UserRecord(ctx, userID)
}

func (t timed) RateGame(ctx context.Context, g *store.Game, fresh store.Rating, update func(a, b store.Rating) (store.Rating, store.Rating, error)) ([2]store.Rating, error) {
	defer t.since("rate_game", time.Now())
	return t.st.RateGame(ctx, g, fresh, update)
}

func (t timed) AddChat(ctx context.Context, l store.ChatLine) error {
	defer t.since("add_chat", time.Now())
	return t.st.AddChat(ctx, l)
}

func (t timed) Chat(ctx context.Context, gameID string, fromSeq int) ([]store.ChatLine, error) {
	defer t.since("chat", time.Now())
	return t.st.Chat(ctx, gameID, fromSeq)
}

func (t timed) StartReview(ctx context.Context, r *store.Review, staleBefore int64) (*store.Review, bool, error) {
	defer t.since("start_review", time.Now())
	return t.st.StartReview(ctx, r, staleBefore)
}

func (t timed) SaveReview(ctx context.Context, r *store.Review) error {
	defer t.since("save_review", time.Now())
	return t.st.SaveReview(ctx, r)
}

func (t timed) Review(ctx context.Context, gameID string) (*store.Review, error) {
	defer t.since("review", time.Now())
	return t.st.Review(ctx, gameID)
}

func (t timed) PuzzleRatings(ctx context.Context) (map[string]store.PuzzleRating, error) {
	defer t.since("puzzle_ratings", time.Now())
	return t.st.PuzzleRatings(ctx)
}

func (t timed) Attempted(ctx context.Context, userID string) (map[string]bool, error) {
	defer t.since("attempted", time.Now())
	return t.st.Attempted(ctx, userID)
}

func (t timed) RatePuzzle(ctx context.Context, userID, puzzleID, game string, solved bool, at int64,
	freshUser store.Rating, freshPuzzle store.PuzzleRating, update func(user store.Rating, puzzle store.PuzzleRating) (store.Rating, store.PuzzleRating, error)) (store.Rating, store.PuzzleRating, error) {
	defer t.since("rate_puzzle", time.Now())
	return t.st.RatePuzzle(ctx, userID, puzzleID, game, solved, at, freshUser, freshPuzzle, update)
}

func (t timed) AddPuzzlePlay(ctx context.Context, userID string, p store.PuzzlePlay) error {
	defer t.since("add_puzzle_play", time.Now())
	return t.st.AddPuzzlePlay(ctx, userID, p)
}

func (t timed) PuzzlePlays(ctx context.Context, userID, game string, limit int) ([]store.PuzzlePlay, error) {
	defer t.since("puzzle_plays", time.Now())
	return t.st.PuzzlePlays(ctx, userID, game, limit)
}

func (t timed) LearnProgress(ctx context.Context, userID string) (map[string][]string, error) {
	defer t.since("learn_progress", time.Now())
	return t.st.LearnProgress(ctx, userID)
}

func (t timed) AddLearnProgress(ctx context.Context, userID, game string, solved []string, at int64) ([]string, error) {
	defer t.since("add_learn_progress", time.Now())
	return t.st.AddLearnProgress(ctx, userID, game, solved, at)
}

func (t timed) LearnStars(ctx context.Context, userID string) (map[string]map[string]int, error) {
	defer t.since("learn_stars", time.Now())
	return t.st.LearnStars(ctx, userID)
}

func (t timed) AddLearnStars(ctx context.Context, userID, game string, stars map[string]int, at int64) (map[string]int, error) {
	defer t.since("add_learn_stars", time.Now())
	return t.st.AddLearnStars(ctx, userID, game, stars, at)
}

func (t timed) Ping(ctx context.Context) error {
	defer t.since("ping", time.Now())
	return t.st.Ping(ctx)
}

func (t timed) Close() error {
	defer t.since("close", time.Now())
	return t.st.Close()
}

func (t timed) RatedBetween(ctx context.Context, a, b string, since int64) (int, error) {
	defer t.since("rated_between", time.Now())
	return t.st.RatedBetween(ctx, a, b, since)
}

func (t timed) Standing(ctx context.Context, userID string) (store.Standing, error) {
	defer t.since("standing", time.Now())
	return t.st.Standing(ctx, userID)
}

func (t timed) SetStanding(ctx context.Context, userID string, st store.Standing) error {
	defer t.since("set_standing", time.Now())
	return t.st.SetStanding(ctx, userID, st)
}

func (t timed) AddReport(ctx context.Context, r *store.Report) error {
	defer t.since("add_report", time.Now())
	return t.st.AddReport(ctx, r)
}

func (t timed) Reports(ctx context.Context, open bool, limit int) ([]store.Report, error) {
	defer t.since("reports", time.Now())
	return t.st.Reports(ctx, open, limit)
}

func (t timed) Report(ctx context.Context, id string) (store.Report, error) {
	defer t.since("report", time.Now())
	return t.st.Report(ctx, id)
}

func (t timed) CloseReport(ctx context.Context, id, by, outcome string, at int64) error {
	defer t.since("close_report", time.Now())
	return t.st.CloseReport(ctx, id, by, outcome, at)
}

func (t timed) Block(ctx context.Context, userID, blocked string, at int64) error {
	defer t.since("block", time.Now())
	return t.st.Block(ctx, userID, blocked, at)
}

func (t timed) Unblock(ctx context.Context, userID, blocked string) error {
	defer t.since("unblock", time.Now())
	return t.st.Unblock(ctx, userID, blocked)
}

func (t timed) Blocks(ctx context.Context, userID string) ([]string, error) {
	defer t.since("blocks", time.Now())
	return t.st.Blocks(ctx, userID)
}

func (t timed) Blocked(ctx context.Context, a, b string) (bool, error) {
	defer t.since("blocked", time.Now())
	return t.st.Blocked(ctx, a, b)
}

func (t timed) LogAction(ctx context.Context, a *store.ModAction) error {
	defer t.since("log_action", time.Now())
	return t.st.LogAction(ctx, a)
}

func (t timed) ModLog(ctx context.Context, limit int) ([]store.ModAction, error) {
	defer t.since("mod_log", time.Now())
	return t.st.ModLog(ctx, limit)
}

func (t timed) Seen(ctx context.Context, userID, kind, value string, at int64) error {
	defer t.since("seen", time.Now())
	return t.st.Seen(ctx, userID, kind, value, at)
}

func (t timed) Shared(ctx context.Context, a, b string) ([]string, error) {
	defer t.since("shared", time.Now())
	return t.st.Shared(ctx, a, b)
}

func (t timed) RatedGames(ctx context.Context, userID string) ([]string, error) {
	defer t.since("rated_games", time.Now())
	return t.st.RatedGames(ctx, userID)
}

func (t timed) VoidGame(ctx context.Context, gameID string, at int64) error {
	defer t.since("void_game", time.Now())
	return t.st.VoidGame(ctx, gameID, at)
}

func (t timed) SetEmail(ctx context.Context, userID, email string) error {
	defer t.since("set_email", time.Now())
	return t.st.SetEmail(ctx, userID, email)
}

func (t timed) UsersByEmail(ctx context.Context, email string, limit int) ([]*store.User, error) {
	defer t.since("users_by_email", time.Now())
	return t.st.UsersByEmail(ctx, email, limit)
}

func (t timed) Sessions(ctx context.Context, userID string, createdAfter int64) ([]store.Session, error) {
	defer t.since("sessions", time.Now())
	return t.st.Sessions(ctx, userID, createdAfter)
}

func (t timed) TouchSession(ctx context.Context, tokenHash string, at int64) error {
	defer t.since("touch_session", time.Now())
	return t.st.TouchSession(ctx, tokenHash, at)
}

func (t timed) EndSession(ctx context.Context, userID, id string) (bool, error) {
	defer t.since("end_session", time.Now())
	return t.st.EndSession(ctx, userID, id)
}

func (t timed) EndOtherSessions(ctx context.Context, userID, keepTokenHash string) (int, error) {
	defer t.since("end_other_sessions", time.Now())
	return t.st.EndOtherSessions(ctx, userID, keepTokenHash)
}

func (t timed) CreateReset(ctx context.Context, r store.Reset) error {
	defer t.since("create_reset", time.Now())
	return t.st.CreateReset(ctx, r)
}

func (t timed) UseReset(ctx context.Context, tokenHash, password string, now int64) (*store.User, error) {
	defer t.since("use_reset", time.Now())
	return t.st.UseReset(ctx, tokenHash, password, now)
}

func (t timed) AccountData(ctx context.Context, userID string) (*store.AccountData, error) {
	defer t.since("account_data", time.Now())
	return t.st.AccountData(ctx, userID)
}

func (t timed) DeleteUser(ctx context.Context, userID string) error {
	defer t.since("delete_user", time.Now())
	return t.st.DeleteUser(ctx, userID)
}

func (t timed) IsBot(ctx context.Context, userID string) (bool, error) {
	defer t.since("is_bot", time.Now())
	return t.st.IsBot(ctx, userID)
}

func (t timed) MakeBot(ctx context.Context, userID string, at int64) error {
	defer t.since("make_bot", time.Now())
	return t.st.MakeBot(ctx, userID, at)
}

func (t timed) CreateToken(ctx context.Context, tk *store.Token) error {
	defer t.since("create_token", time.Now())
	return t.st.CreateToken(ctx, tk)
}

func (t timed) Tokens(ctx context.Context, userID string) ([]store.Token, error) {
	defer t.since("tokens", time.Now())
	return t.st.Tokens(ctx, userID)
}

func (t timed) RevokeToken(ctx context.Context, userID, id string, at int64) (bool, error) {
	defer t.since("revoke_token", time.Now())
	return t.st.RevokeToken(ctx, userID, id, at)
}

func (t timed) TokenUser(ctx context.Context, tokenHash string) (*store.User, store.Token, error) {
	defer t.since("token_user", time.Now())
	return t.st.TokenUser(ctx, tokenHash)
}

func (t timed) TouchToken(ctx context.Context, id string, at int64) error {
	defer t.since("touch_token", time.Now())
	return t.st.TouchToken(ctx, id, at)
}

func (t timed) CreateChallenge(ctx context.Context, c store.Challenge) error {
	defer t.since("create_challenge", time.Now())
	return t.st.CreateChallenge(ctx, c)
}

func (t timed) Challenge(ctx context.Context, gameID string) (store.Challenge, error) {
	defer t.since("challenge", time.Now())
	return t.st.Challenge(ctx, gameID)
}

func (t timed) DeclineChallenge(ctx context.Context, gameID string, at int64) error {
	defer t.since("decline_challenge", time.Now())
	return t.st.DeclineChallenge(ctx, gameID, at)
}

func (t timed) ChallengesTo(ctx context.Context, userID string) ([]store.Challenge, error) {
	defer t.since("challenges_to", time.Now())
	return t.st.ChallengesTo(ctx, userID)
}

func (t timed) SetArchiveIndexer(f store.ArchiveIndexer) {
	defer t.since("set_archive_indexer", time.Now())
	t.st.SetArchiveIndexer(f)
}

func (t timed) SetIndexErrorHandler(h func(gameID string, err error)) {
	defer t.since("set_index_error_handler", time.Now())
	t.st.SetIndexErrorHandler(h)
}

func (t timed) ExplorerMoves(ctx context.Context, pos int64, f store.ExplorerFilter) ([]store.ExplorerMove, error) {
	defer t.since("explorer_moves", time.Now())
	return t.st.ExplorerMoves(ctx, pos, f)
}

func (t timed) RepertoireMoves(ctx context.Context, userID string, pos int64) ([]store.ExplorerMove, error) {
	defer t.since("repertoire_moves", time.Now())
	return t.st.RepertoireMoves(ctx, userID, pos)
}

func (t timed) SearchGames(ctx context.Context, q store.GameSearch) ([]store.ArchiveGame, bool, error) {
	defer t.since("search_games", time.Now())
	return t.st.SearchGames(ctx, q)
}

func (t timed) ImportGames(ctx context.Context, imports []store.ArchiveImport) error {
	defer t.since("import_games", time.Now())
	return t.st.ImportGames(ctx, imports)
}

func (t timed) ImportRecords(ctx context.Context, next func() (*store.ArchiveImport, error), dup func(im *store.ArchiveImport, earlier string) error) (int, error) {
	defer t.since("import_records", time.Now())
	return t.st.ImportRecords(ctx, next, dup)
}

func (t timed) ArchiveGames(ctx context.Context, after string, f func(g *store.Game, moves []string) (bool, error)) error {
	defer t.since("archive_games", time.Now())
	return t.st.ArchiveGames(ctx, after, f)
}

func (t timed) ClearArchive(ctx context.Context) error {
	defer t.since("clear_archive", time.Now())
	return t.st.ClearArchive(ctx)
}

func (t timed) IndexGames(ctx context.Context, batch []store.IndexedGame) (int, error) {
	defer t.since("index_games", time.Now())
	return t.st.IndexGames(ctx, batch)
}

func (t timed) ArchiveCounts(ctx context.Context) (store.ArchiveCounts, error) {
	defer t.since("archive_counts", time.Now())
	return t.st.ArchiveCounts(ctx)
}

func (t timed) DumpArchive(ctx context.Context, f func(table, row string) error) error {
	defer t.since("dump_archive", time.Now())
	return t.st.DumpArchive(ctx, f)
}

func (t timed) MergeArchive(ctx context.Context) (int, error) {
	defer t.since("merge_archive", time.Now())
	return t.st.MergeArchive(ctx)
}

func (t timed) ArchiveMergeStats() store.ArchiveMergeStats {
	defer t.since("archive_merge_stats", time.Now())
	return t.st.ArchiveMergeStats()
}

func (t timed) Unarchived(ctx context.Context, f func(g *store.Game, moves []string) (bool, error)) error {
	defer t.since("unarchived", time.Now())
	return t.st.Unarchived(ctx, f)
}
