package game

// Mistake is an error in a position's or a move's text that a front end
// can word in its own language: Code names the mistake ("rank_char"),
// Vars are the values its words need ("rank": "1", "char": "9"), and Msg
// is the English sentence, which Error returns. The rules packages return
// it from their parsers; the play server passes the code and values on.
type Mistake struct {
	Code string
	Vars map[string]string
	Msg  string
}

func (m *Mistake) Error() string { return m.Msg }

// Mistaken is a Mistake: its code, its English text, and its values as
// name, value pairs.
func Mistaken(code, msg string, vars ...string) error {
	m := &Mistake{Code: code, Msg: msg, Vars: map[string]string{}}
	for i := 0; i+1 < len(vars); i += 2 {
		m.Vars[vars[i]] = vars[i+1]
	}
	return m
}
