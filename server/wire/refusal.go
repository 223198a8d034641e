package wire

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/magneton-games/magneton/game"
)

// Refusal is the server's answer to what a client may not do, now or at
// all: an English sentence, and a code that a front end words in the
// player's language (err.<code> in its catalogue, filled with Vars). A
// refusal travels as {"error": Msg, "code", "vars"} in an HTTP answer and
// as {"type": "error", "message": Msg, "code", "vars"} on a socket. Any
// error that is not a Refusal is the server's fault: logged, and reported
// as an internal error.
type Refusal struct {
	Msg string
	// Code names the refusal ("" for one without, which is shown as Msg);
	// Vars are the values its text needs.
	Code string
	Vars map[string]string
	// Forbidden: the client may not do it at all (403), rather than not
	// now (409).
	Forbidden bool
}

func (r Refusal) Error() string { return r.Msg }

// Refuse is a refusal that the front end words itself: code names it,
// vars (name, value pairs) fill its text, and msg is the English text
// with the values already in it.
func Refuse(code, msg string, vars ...string) Refusal {
	r := Refusal{Msg: msg, Code: code}
	if len(vars) > 0 {
		r.Vars = map[string]string{}
		for i := 0; i+1 < len(vars); i += 2 {
			r.Vars[vars[i]] = vars[i+1]
		}
	}
	return r
}

// Forbid is Refuse for what the client may not do at all.
func Forbid(code, msg string, vars ...string) Refusal {
	r := Refuse(code, msg, vars...)
	r.Forbidden = true
	return r
}

// Refusef is a refusal without a code, for mistakes only a program makes
// (an unknown message type, a missing field): the English text is shown
// as it is.
func Refusef(format string, args ...any) Refusal {
	return Refusal{Msg: fmt.Sprintf(format, args...)}
}

// JSON is the refusal as the protocol answers it: the English text under
// key ("error" in HTTP answers, "message" on a socket), with its code and
// values.
func (r Refusal) JSON(key string) map[string]any {
	out := map[string]any{key: r.Msg}
	if r.Code != "" {
		out["code"] = r.Code
		if len(r.Vars) > 0 {
			out["vars"] = r.Vars
		}
	}
	return out
}

// ErrSave is what a client hears when the database refused a write.
var ErrSave = Refusal{Msg: "the server could not save that; please try again", Code: "not_saved"}

// ErrMoved is what a client hears when the game moved to another server
// instance between its action and the write.
var ErrMoved = Refusal{Msg: "another server instance runs this game now; please try again", Code: "game_moved"}

// ErrShuttingDown refuses an action while the server stops.
var ErrShuttingDown = Refusal{Msg: "the server is shutting down; try again in a moment", Code: "shutting_down"}

// Because is the values of a refusal whose {why} is an error of the rules
// engine: "why", its English sentence without the move or position it
// repeats (prefixes: "zz9", so that "zz9: …" and `"zz9": …` both lose
// it), and "why_code" with the values a front end words it with
// (why.<code> in its catalogue): the error's own when it is a
// game.Mistake, else fallback with none.
func Because(err error, fallback string, prefixes ...string) []string {
	why := err.Error()
	for _, p := range prefixes {
		for _, form := range []string{p + ": ", strconv.Quote(p) + ": "} {
			why = strings.TrimPrefix(why, form)
		}
	}
	out := []string{"why", why}
	var m *game.Mistake
	if !errors.As(err, &m) {
		return append(out, "why_code", fallback)
	}
	out = append(out, "why_code", m.Code)
	for _, k := range slices.Sorted(maps.Keys(m.Vars)) {
		if k != "why" && k != "why_code" {
			out = append(out, k, m.Vars[k])
		}
	}
	return out
}
