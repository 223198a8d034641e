package store_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// everything gives ann (account a) one of everything the site keeps: a
// rated game with bob, finished, with moves and chat; a game being
// played; a spectator's line in bob's game with cat; a lesson, a
// puzzle, a session, a reset link, an API token and tournaments (see
// tournaments). It returns the games by id.
func everything(t *testing.T, ctx context.Context, s store.Store) map[string]*store.Game {
	t.Helper()
	games := map[string]*store.Game{}
	for _, tc := range []struct {
		id, status   string
		users, names [2]string
	}{
		{"done", store.Finished, [2]string{"a", "b"}, [2]string{"ann", "bob"}},
		{"live", store.Playing, [2]string{"b", "a"}, [2]string{"bob", "ann"}},
		{"theirs", store.Finished, [2]string{"b", "c"}, [2]string{"bob", "cat"}},
	} {
		g := ratedGame(tc.id, tc.users, 100)
		g.Players, g.Seats, g.Status = tc.names, [2]string{"seat-" + tc.names[0], "seat-" + tc.names[1]}, tc.status
		games[tc.id] = g
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	done := games["done"]
	for i, m := range []string{"d4", "e5"} {
		done.Moves = i + 1
		if err := s.AddMove(ctx, done, store.Move{Ply: i, Move: m, PlayedAt: int64(200 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RateGame(ctx, done, fresh, plusWin); err != nil {
		t.Fatal(err)
	}
	for _, l := range []store.ChatLine{
		{Game: "done", Seq: 0, Room: store.ChatPlayers, Side: 0, Name: "ann", Text: "good luck", At: 10},
		{Game: "done", Seq: 1, Room: store.ChatPlayers, Side: 1, Name: "bob", Text: "thanks", At: 11},
		{Game: "theirs", Seq: 0, Room: store.ChatSpectators, Side: -1, Name: "ann", Text: "nice move", At: 12},
		{Game: "theirs", Seq: 1, Room: store.ChatSpectators, Side: -1, Name: "Guest-0042", Text: "hi", At: 13},
	} {
		if err := s.AddChat(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	s.AddLearnProgress(ctx, "a", "magneton", []string{"drop"}, 20)
	puzzleRule := func(u store.Rating, p store.PuzzleRating) (store.Rating, store.PuzzleRating, error) {
		u.Games, u.Updated = 1, 30
		return u, p, nil
	}
	if _, _, err := s.RatePuzzle(ctx, "a", "m-1", "magneton", true, 30, fresh, store.PuzzleRating{R: 1500, RD: 300, Vol: 0.06}, puzzleRule); err != nil {
		t.Fatal(err)
	}
	if err := s.AddPuzzlePlay(ctx, "a", store.PuzzlePlay{Puzzle: "m-1", Game: "magneton", Solved: true, Rated: true, Rating: 1500, At: 30}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddPuzzlePlay(ctx, "b", store.PuzzlePlay{Puzzle: "m-1", Game: "magneton", At: 31}); err != nil {
		t.Fatal(err)
	}
	s.CreateSession(ctx, "ann-session", "a", "Firefox 128 on Linux", 40)
	s.CreateSession(ctx, "bob-session", "b", "", 40)
	s.CreateReset(ctx, store.Reset{TokenHash: "ann-reset", UserID: "a", Created: 50, Expires: 1 << 50, Via: store.ResetByMail})
	if err := s.CreateToken(ctx, &store.Token{ID: "tok-a", UserID: "a", Label: "my bot", TokenHash: "hash-a", Created: 60}); err != nil {
		t.Fatal(err)
	}
	tournaments(t, ctx, s)
	return games
}

// tournaments makes three: "open" (made by ann, not begun, ann and bob
// entered), "running" (bob's, begun, both entered) and "bobs" (bob's,
// only bob entered).
func tournaments(t *testing.T, ctx context.Context, s store.Store) {
	t.Helper()
	for i, tc := range []struct{ id, creator string }{{"open", "a"}, {"running", "b"}, {"bobs", "b"}} {
		tr := &store.Tournament{ID: tc.id, Name: "Cup " + tc.id, Game: "magneton", Rules: "standard", Format: "swiss", Clock: "3+2",
			Creator: tc.creator, Starts: 1 << 50, Rounds: 3, Created: int64(70 + i)}
		if err := s.CreateTournament(ctx, tr, 5); err != nil {
			t.Fatal(err)
		}
		users := []string{"a", "b"}
		if tc.id == "bobs" {
			users = users[1:]
		}
		for _, u := range users {
			if err := s.JoinTournament(ctx, tc.id, store.TournamentEntry{User: u, Rating: 1500, JoinedRound: 1, Joined: int64(80 + i)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.AcquireTournament(ctx, "running", "one", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.StartTournament(ctx, "running", "one", 3, 90); err != nil {
		t.Fatal(err)
	}
}

func threeUsers(t *testing.T, backend string) (context.Context, store.Store) {
	return openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1, Email: "ann@example.org"},
		&store.User{ID: "b", Name: "bob", Password: "h", Created: 1}, &store.User{ID: "c", Name: "cat", Password: "h", Created: 1})
}

// TestAccountData: an account's data holds its profile, e-mail, ratings
// and their history, its games (the one being played too) with their
// moves, the lines it wrote in every room, its lessons, puzzles and
// sessions, and nothing of others.
func TestAccountData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := threeUsers(t, backend)
		everything(t, ctx, s)
		d, err := s.AccountData(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		if d.User.Name != "ann" || d.User.Email != "ann@example.org" {
			t.Errorf("the profile: %+v", d.User)
		}
		if len(d.Ratings) != 2 || len(d.History) != 2 {
			t.Errorf("the ratings %+v and their history %+v: want a game's and a puzzle's", d.Ratings, d.History)
		}
		var ids []string
		for _, g := range d.Games {
			ids = append(ids, g.ID)
		}
		if !reflect.DeepEqual(ids, []string{"done", "live"}) || len(d.Moves["done"]) != 2 || d.Moves["done"][1].Move != "e5" || len(d.Moves) != 1 {
			t.Errorf("the games %v and moves %+v", ids, d.Moves)
		}
		var lines []string
		for _, l := range d.Chat {
			lines = append(lines, l.Game+": "+l.Text)
		}
		if !reflect.DeepEqual(lines, []string{"done: good luck", "theirs: nice move"}) {
			t.Errorf("the lines ann wrote: %q", lines)
		}
		if !reflect.DeepEqual(d.Lessons, map[string][]string{"magneton": {"drop"}}) ||
			!reflect.DeepEqual(d.Puzzles, []store.PuzzleAttempt{{Puzzle: "m-1", Solved: true, At: 30}}) ||
			!reflect.DeepEqual(d.PuzzlePlays, []store.PuzzlePlay{{Puzzle: "m-1", Game: "magneton", Solved: true, Rated: true, Rating: 1500, At: 30}}) {
			t.Errorf("the lessons %v, puzzles %+v and puzzle plays %+v", d.Lessons, d.Puzzles, d.PuzzlePlays)
		}
		if len(d.Sessions) != 1 || d.Sessions[0].Agent != "Firefox 128 on Linux" {
			t.Errorf("the sessions: %+v", d.Sessions)
		}
		wantT := []store.AccountTournament{
			{ID: "open", Name: "Cup open", Game: "magneton", Format: "swiss", Status: store.TournamentCreated, Made: true, Entered: true, Rating: 1500, Joined: 80},
			{ID: "running", Name: "Cup running", Game: "magneton", Format: "swiss", Status: store.TournamentStarted, Entered: true, Rating: 1500, Joined: 81},
		}
		if !reflect.DeepEqual(d.Tournaments, wantT) {
			t.Errorf("the tournaments:\n got %+v\nwant %+v", d.Tournaments, wantT)
		}
		if len(d.Tokens) != 1 || d.Tokens[0].ID != "tok-a" || d.Tokens[0].Label != "my bot" {
			t.Errorf("the API tokens: %+v", d.Tokens)
		}
		if _, err := s.AccountData(ctx, "nobody"); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("the data of nobody: %v", err)
		}
	})
}

// TestDeleteUser: an account with a game being played is not deleted;
// once it is over, the account goes in one transaction: its games stay
// with its seats and lines shown as the deleted player, its ratings,
// sessions, lessons, puzzle attempts and links go, others' stay, and the
// name is free again. A stale write of a game does not bring the seat
// back.
func TestDeleteUser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := threeUsers(t, backend)
		games := everything(t, ctx, s)
		if err := s.DeleteUser(ctx, "a"); !errors.Is(err, store.ErrPlaying) {
			t.Fatalf("deleting ann while she plays: %v", err)
		}
		live := games["live"]
		live.Status, live.Result = store.Finished, "1-0"
		if err := s.UpdateGame(ctx, live); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteUser(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteUser(ctx, "a"); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("deleting ann twice: %v", err)
		}
		checkDeletedGames(t, ctx, s)
		checkDeletedData(t, ctx, s)
		// A stale write of a game, from before the deletion, keeps the
		// seat deleted.
		stale := *games["done"]
		stale.RematchBy, stale.Updated = 1, 900
		if err := s.UpdateGame(ctx, &stale); err != nil {
			t.Fatal(err)
		}
		if g, _ := s.Game(ctx, "done"); g.Users != [2]string{"", "b"} || g.Players != [2]string{store.DeletedPlayer, "bob"} || g.Seats[0] != "" || g.RematchBy != 1 {
			t.Errorf("after a stale write: users %q, players %q, seats %q", g.Users, g.Players, g.Seats)
		}
		if err := s.CreateUser(ctx, &store.User{ID: "a2", Name: "Ann", Password: "h", Created: 5}); err != nil {
			t.Errorf("the name taken again: %v", err)
		}
		if d, err := s.AccountData(ctx, "a2"); err != nil || len(d.Games)+len(d.Chat)+len(d.Ratings) != 0 {
			t.Errorf("the new ann inherits %+v (%v)", d, err)
		}
	})
}

// checkDeletedGames: ann's games show the deleted player in her seats
// and lines, bob's seats and lines as they were.
func checkDeletedGames(t *testing.T, ctx context.Context, s store.Store) {
	t.Helper()
	for id, want := range map[string][2]string{"done": {store.DeletedPlayer, "bob"}, "live": {"bob", store.DeletedPlayer}, "theirs": {"bob", "cat"}} {
		g, err := s.Game(ctx, id)
		if err != nil || g.Players != want {
			t.Errorf("%s: players %q (%v), want %q", id, g.Players, err, want)
			continue
		}
		for i := range 2 {
			if g.Players[i] == store.DeletedPlayer && (g.Users[i] != "" || g.Seats[i] != "" || g.Guests[i] != "") || g.Players[i] == "bob" && g.Users[i] != "b" {
				t.Errorf("%s: seat %d is %q, user %q, seat token %q", id, i, g.Players[i], g.Users[i], g.Seats[i])
			}
		}
	}
	if moves, _ := s.Moves(ctx, "done"); len(moves) != 2 {
		t.Errorf("the game's moves: %+v", moves)
	}
	var names []string
	for _, id := range []string{"done", "theirs"} {
		lines, _ := s.Chat(ctx, id, 0)
		for _, l := range lines {
			names = append(names, l.Name+": "+l.Text)
		}
	}
	want := []string{store.DeletedPlayer + ": good luck", "bob: thanks", store.DeletedPlayer + ": nice move", "Guest-0042: hi"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("the chat: %q, want %q", names, want)
	}
}

// checkDeletedData: ann's account, ratings, sessions, lessons, puzzle
// attempts and links are gone; bob's rating and session stay.
func checkDeletedData(t *testing.T, ctx context.Context, s store.Store) {
	t.Helper()
	if _, err := s.UserByName(ctx, "ann"); !errors.Is(err, store.ErrNoUser) {
		t.Errorf("ann's account: %v", err)
	}
	if users, _ := s.UsersByEmail(ctx, "ann@example.org", 5); len(users) != 0 {
		t.Errorf("ann's e-mail finds %+v", users)
	}
	if r, _ := s.Ratings(ctx, "a"); len(r) != 0 {
		t.Errorf("ann's ratings: %+v", r)
	}
	if h, _ := s.RatingHistory(ctx, "a"); len(h) != 0 {
		t.Errorf("ann's rating history: %+v", h)
	}
	if l, _ := s.LearnProgress(ctx, "a"); len(l) != 0 {
		t.Errorf("ann's lessons: %+v", l)
	}
	if p, _ := s.Attempted(ctx, "a"); len(p) != 0 {
		t.Errorf("ann's puzzles: %+v", p)
	}
	if _, err := s.SessionUser(ctx, "ann-session", 0); !errors.Is(err, store.ErrNoSession) {
		t.Errorf("ann's session: %v", err)
	}
	if _, err := s.UseReset(ctx, "ann-reset", "x", 60); !errors.Is(err, store.ErrNoReset) {
		t.Errorf("ann's reset link: %v", err)
	}
	if r, ok, _ := s.Rating(ctx, "b", "magneton", "standard"); !ok || r.Games != 1 {
		t.Errorf("bob's rating: %+v %v", r, ok)
	}
	if u, err := s.SessionUser(ctx, "bob-session", 0); err != nil || u.Name != "bob" {
		t.Errorf("bob's session: %+v %v", u, err)
	}
	if all, _ := s.PuzzleRatings(ctx); all["m-1"].RD == 0 {
		t.Errorf("the puzzle's rating went with ann: %+v", all)
	}
	checkDeletedEntries(t, ctx, s)
}

// checkDeletedEntries: ann is out of the tournament not begun (which
// stays, bob entered), withdrawn from the one under way, so that no
// director pairs her again, and her API token is gone.
func checkDeletedEntries(t *testing.T, ctx context.Context, s store.Store) {
	t.Helper()
	want := map[string]string{"open": "bob", "running": store.DeletedPlayer + " (withdrawn) bob", "bobs": "bob"}
	for id, w := range want {
		es, err := s.TournamentEntries(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			n := e.Name
			if e.Withdrawn {
				n += " (withdrawn)"
			}
			names = append(names, n)
		}
		if got := strings.Join(names, " "); got != w {
			t.Errorf("tournament %s's entries after ann's deletion: %q, want %q", id, got, w)
		}
	}
	if toks, _ := s.Tokens(ctx, "a"); len(toks) != 0 {
		t.Errorf("ann's API tokens: %+v", toks)
	}
}
