package analysis

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/server/jsonapi"
)

// MaxImport bounds the text of one record import.
const MaxImport = 256 << 10

// ImportRequest is a record to read (POST /api/import): any format the
// site writes (the PGN-like record of every game, Tumbling Down's SGF).
type ImportRequest struct {
	Text string `json:"text"`
}

// Imported is a record read: its game, rules, start position and moves,
// for the analysis board.
type Imported struct {
	Game     string   `json:"game"`
	Format   string   `json:"format"`
	Rules    string   `json:"rules"`
	Position string   `json:"position"`
	Moves    []string `json:"moves"`
	Result   string   `json:"result"`
}

// Import reads a record in any format of any game: an SGF tree ("(;")
// by the games that have SGF, else the PGN-like record. The error says
// what is wrong and where.
func Import(text string) (Imported, error) {
	text = strings.TrimSpace(strings.TrimPrefix(text, "\ufeff"))
	if text == "" {
		return Imported{}, errors.New("the record is empty")
	}
	var tr game.Transcript
	var format string
	if strings.HasPrefix(text, "(") {
		var errs []string
		for _, g := range games.All() {
			f, err := record.FormatOf(g.Spec, "sgf")
			if err != nil {
				continue
			}
			if tr, err = f.Read(text); err == nil {
				format = f.Name
				break
			}
			errs = append(errs, err.Error())
		}
		if format == "" {
			if len(errs) == 0 {
				return Imported{}, errors.New("an SGF record, but no game of the site reads SGF")
			}
			return Imported{}, fmt.Errorf("%s", strings.Join(errs, "; "))
		}
	} else {
		var err error
		if tr, err = record.PGN.Read(text); err != nil {
			return Imported{}, err
		}
		format = record.PGN.Name
	}
	g := tr.Game
	res, _ := g.Result()
	return Imported{Game: g.Rules().Spec().Name, Format: format, Rules: g.Rules().Settings().String(), Position: g.Start().String(), Moves: append([]string{}, g.Moves()...), Result: res.String()}, nil
}

// handleImport reads a record for the analysis board.
func (a *Analysis) handleImport(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxImport+4096)
	var req ImportRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	if len(req.Text) > MaxImport {
		jsonapi.WriteCoded(w, http.StatusBadRequest, "import_large", fmt.Sprintf("the record has %d bytes, more than %d", len(req.Text), MaxImport), "max", fmt.Sprint(MaxImport))
		return
	}
	out, err := Import(req.Text)
	if err != nil {
		jsonapi.WriteCoded(w, http.StatusBadRequest, "import_unreadable", "the record cannot be read: "+err.Error(), "why", err.Error())
		return
	}
	jsonapi.Write(w, http.StatusOK, out)
}
