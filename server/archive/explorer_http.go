package archive

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Sources are the archive's sources of games, as the filters name them.
var Sources = []string{store.SourceSite, store.SourceBoardspace, store.SourceImport}

// MaxBand is the highest rating band a filter takes.
const MaxBand = 4000

// allowed answers 429 when the request's address has asked the archive
// too often, and reports whether it may go on.
func (s *Service) allowed(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.Clients == nil || s.cfg.Clients.AllowArchive(s.cfg.Proxies.ClientIP(r)) {
		return true
	}
	max := fmt.Sprintf("%g", s.cfg.Clients.Limits().ArchivePerMinute)
	jsonapi.WriteCoded(w, http.StatusTooManyRequests, "archive_fast",
		"too many questions to the game archive from your address: at most "+max+" a minute; try again in a moment", "max", max)
	return false
}

// badParam is the refusal of a query parameter's value, saying what the
// parameter takes.
func badParam(name, value, want string) error {
	return wire.Refuse("archive_param", fmt.Sprintf("%s %q: want %s", name, value, want), "name", name, "value", value, "want", want)
}

// listParam reads a parameter that lists values, comma-separated (or
// given several times): each must be one of allowed. Nil for none.
func listParam(q url.Values, name string, allowed []string) ([]string, error) {
	var out []string
	for _, v := range q[name] {
		for item := range strings.SplitSeq(v, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			if !slices.Contains(allowed, item) {
				return nil, badParam(name, item, orList(allowed))
			}
			if !slices.Contains(out, item) {
				out = append(out, item)
			}
		}
	}
	return out, nil
}

// orList writes "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// flagParam reads a yes-or-no parameter: "1" or "true", "0", "false" or
// absent.
func flagParam(q url.Values, name string) (bool, error) {
	switch v := q.Get(name); v {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	default:
		return false, badParam(name, v, "1 or 0")
	}
}

// bandParam reads a rating band's bound: a multiple of BandWidth from 0
// to MaxBand (0 or absent: no bound).
func bandParam(q url.Values, name string) (int, error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > MaxBand || n%BandWidth != 0 {
		return 0, badParam(name, v, fmt.Sprintf("a multiple of %d from 0 to %d", BandWidth, MaxBand))
	}
	return n, nil
}

// ReadFilter reads the explorer's filters from a query: sources, rated,
// speeds, minBand and maxBand.
func ReadFilter(q url.Values) (store.ExplorerFilter, error) {
	var (
		f   store.ExplorerFilter
		err error
	)
	if f.Sources, err = listParam(q, "sources", Sources); err != nil {
		return f, err
	}
	if f.Rated, err = flagParam(q, "rated"); err != nil {
		return f, err
	}
	if f.Speeds, err = listParam(q, "speeds", Speeds); err != nil {
		return f, err
	}
	if f.MinBand, err = bandParam(q, "minBand"); err != nil {
		return f, err
	}
	if f.MaxBand, err = bandParam(q, "maxBand"); err != nil {
		return f, err
	}
	if f.MaxBand > 0 && f.MinBand > f.MaxBand {
		return f, wire.Refuse("archive_bands", fmt.Sprintf("minBand %d is above maxBand %d", f.MinBand, f.MaxBand),
			"min", strconv.Itoa(f.MinBand), "max", strconv.Itoa(f.MaxBand))
	}
	return f, nil
}

// filtered reports whether a filter selects fewer than every game.
func filtered(f store.ExplorerFilter) bool {
	return len(f.Sources) > 0 || f.Rated || len(f.Speeds) > 0 || f.MinBand > 0 || f.MaxBand > 0
}

// ReadMoves reads a list of moves, separated by spaces or commas.
func ReadMoves(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// readQuestion reads an explorer question from a request's query, but
// for the account (Question.User), which the handler finds.
func readQuestion(q url.Values) (Question, error) {
	var qs Question
	rules, err := ReadRules(q.Get("game"), q.Get("rules"))
	if err != nil {
		return qs, err
	}
	if qs.Start, err = ReadPosition(rules, q.Get("position")); err != nil {
		return qs, err
	}
	qs.Moves = ReadMoves(q.Get("moves"))
	if qs.Filter, err = ReadFilter(q); err != nil {
		return qs, err
	}
	if qs.Mine, err = flagParam(q, "mine"); err != nil {
		return qs, err
	}
	if qs.Mine && filtered(qs.Filter) {
		return qs, wire.Refuse("explorer_mine_filter", "mine=1 takes no other filter: an account's repertoire counts all its games")
	}
	return qs, nil
}

// handleExplorer answers GET /api/explorer: the moves played from a
// position in the archive's games, or in the asking account's own.
func (s *Service) handleExplorer(w http.ResponseWriter, r *http.Request) {
	if !s.allowed(w, r) {
		return
	}
	qs, err := readQuestion(r.URL.Query())
	if err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	if qs.Mine {
		u, err := s.cfg.Identities.User(r)
		if err != nil {
			jsonapi.Fail(w, r, s.cfg.Logger, err)
			return
		}
		if u == nil {
			jsonapi.WriteCoded(w, http.StatusUnauthorized, "explorer_login", "log in to see your own games in the explorer")
			return
		}
		qs.User = u.ID
	}
	e := Explorer{Store: s.cfg.Store, Book: games.ProvenBook}
	a, err := e.Explore(r.Context(), qs)
	var rf wire.Refusal
	switch {
	case errors.As(err, &rf):
		jsonapi.WriteRefusal(w, http.StatusBadRequest, rf)
		return
	case err != nil:
		jsonapi.Fail(w, r, s.cfg.Logger, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, a)
}
