package e2e

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// The stages to hold out are proved here, in Go, with the rules engine: a
// search of every line to the stage's depth, which the page's play calls
// would make too slow. A line is searched without the repetition rule
// (no stage to hold out has a history), which can only make a defence
// harder.

// lostFor reports whether s is a game over that side l lost.
func lostFor(s game.State, l game.Side) bool {
	r, _ := s.Outcome()
	w, ok := r.Winner()
	return ok && w != l
}

func isOver(s game.State) bool {
	r, _ := s.Outcome()
	return r.Over()
}

// opponentForces reports whether the opponent of l, to move in s, can win
// within n of its moves whatever l answers.
func opponentForces(s game.State, l game.Side, n int) bool {
	for _, r := range s.Moves() {
		s2, err := s.Play(r)
		if err != nil {
			continue
		}
		if isOver(s2) {
			if lostFor(s2, l) {
				return true
			}
			continue
		}
		if n > 1 && everyMoveLoses(s2, l, n-1) {
			return true
		}
	}
	return false
}

// everyMoveLoses reports whether l, to move in s, loses within n of the
// opponent's moves whatever it plays.
func everyMoveLoses(s game.State, l game.Side, n int) bool {
	for _, m := range s.Moves() {
		s2, err := s.Play(m)
		if err != nil {
			continue
		}
		if isOver(s2) {
			if !lostFor(s2, l) {
				return false
			}
			continue
		}
		if !opponentForces(s2, l, n) {
			return false
		}
	}
	return true
}

// holdStage is a stage to hold out, as the page's lesson module has it.
type holdStage struct {
	Game     string   `json:"game"`
	At       string   `json:"at"`
	Position string   `json:"position"`
	Rules    string   `json:"rules"`
	History  []string `json:"history"`
	Par      int      `json:"par"`
	Solution []string `json:"solution"`
	Losing   []string `json:"losing"`
}

// holdStagesScript returns the stages to hold out of a game's lessons.
const holdStagesScript = `(async (game) => {
	const { stagesOf } = await import('/js/learn-drill.js');
	const lm = await import('/js/games/' + game + '-learn.js');
	const out = [];
	for (const lesson of lm.lessons) {
		for (const [s, st] of stagesOf(lesson).entries()) {
			if (st.goal !== 'survive') continue;
			out.push({ game, at: lesson.id + ':' + s, position: st.position, rules: st.rules || '', history: st.history || [],
				par: st.par || 1, solution: st.solution || [], losing: st.losing || [] });
		}
	}
	return out;
})`

// stageState is a stage's start with the rules engine.
func stageState(st holdStage) (game.State, error) {
	var settings []string
	if st.Rules != "" {
		settings = append(settings, st.Rules)
	}
	rules, err := games.Rules(st.Game, settings...)
	if err != nil {
		return nil, fmt.Errorf("rules %q: %w", st.Rules, err)
	}
	s, err := rules.ParsePosition(st.Position)
	if err != nil {
		return nil, fmt.Errorf("position %q: %w", st.Position, err)
	}
	return playAll(s, st.History)
}

func playAll(s game.State, moves []string) (game.State, error) {
	for _, m := range moves {
		next, err := s.Play(m)
		if err != nil {
			return nil, fmt.Errorf("move %s in %s: %w", m, s, err)
		}
		s = next
	}
	return s, nil
}

// checkHoldStage proves that the learner can hold out for the stage's par
// moves of the opponent (its solution's every move of the learner doing
// so), and that each move it says is losing loses within them.
func checkHoldStage(st holdStage) []string {
	var out []string
	s, err := stageState(st)
	if err != nil {
		return []string{err.Error()}
	}
	l := s.Side()
	if everyMoveLoses(s, l, st.Par) {
		out = append(out, fmt.Sprintf("every move loses within %d moves", st.Par))
	}
	for i := 0; i < len(st.Solution); i += 2 {
		after, err := playAll(s, st.Solution[:i+1])
		if err != nil {
			return append(out, "the solution: "+err.Error())
		}
		if left := st.Par - i/2; lostFor(after, l) || (!isOver(after) && opponentForces(after, l, left)) {
			out = append(out, fmt.Sprintf("the solution's move %s loses within %d moves", st.Solution[i], left))
		}
	}
	if st.Par > 1 && len(st.Losing) == 0 {
		out = append(out, "no losing move listed")
	}
	for _, m := range st.Losing {
		after, err := s.Play(m)
		if err != nil {
			out = append(out, fmt.Sprintf("the losing move %s: %v", m, err))
			continue
		}
		if !lostFor(after, l) && (isOver(after) || !opponentForces(after, l, st.Par)) {
			out = append(out, fmt.Sprintf("the move %s does not lose within %d moves", m, st.Par))
		}
	}
	return out
}

// TestDefencesByTheEngine: every stage to hold out of both games, as
// checkHoldStage proves it with the rules engine; at least one of each
// game holds out for two moves or more, and a move it lists as losing
// loses only in two or more (a trap one move deep would not show).
func TestDefencesByTheEngine(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "defender")
	p.goTo(base + "/learn")
	p.waitFor("the page", `document.querySelector('.learn-cards')`, 10*time.Second)
	for _, name := range []string{"magneton", "tumbling-down"} {
		stages := eval[[]holdStage](p, fmt.Sprintf(`%s(%q)`, holdStagesScript, name))
		deep := false
		for _, st := range stages {
			for _, pr := range checkHoldStage(st) {
				t.Errorf("%s %s: %s", name, st.At, pr)
			}
			if st.Par >= 2 && slices.ContainsFunc(st.Losing, func(m string) bool { return losesOnlyLater(st, m) }) {
				deep = true
			}
		}
		if !deep {
			t.Errorf("%s: no stage holds out for two moves with a trap that loses only later (of %d stages to hold out)", name, len(stages))
		}
		t.Logf("%s: %d stages to hold out proved", name, len(stages))
	}
	p.checkConsole()
}

// losesOnlyLater reports whether the move m of a stage leaves the
// opponent no win at its next move (it loses later, if it does).
func losesOnlyLater(st holdStage, m string) bool {
	s, err := stageState(st)
	if err != nil {
		return false
	}
	after, err := s.Play(m)
	return err == nil && !isOver(after) && !opponentForces(after, s.Side(), 1)
}

// answeredRe reads the computer's reply from a lesson's message.
var answeredRe = regexp.MustCompile(`answers (\S+)\.`)

// holdingMove returns a move of the side to move in s that leaves the
// opponent no win within n moves, and one that does not, "" where none.
func holdingMove(s game.State, n int) (hold, lose string) {
	l := s.Side()
	for _, m := range s.Moves() {
		after, err := s.Play(m)
		if err != nil {
			continue
		}
		if lostFor(after, l) || (!isOver(after) && opponentForces(after, l, n)) {
			if lose == "" {
				lose = m
			}
		} else if hold == "" {
			hold = m
		}
	}
	return hold, lose
}

// TestBrowserHoldOut: Magneton's lesson "Hold out for two moves" against
// the computer's best replies: a first move that holds one move only is
// answered, the learner's next move is beaten by a row with the reason
// said; at the second try the right first move and, after the computer's
// answer, a move that holds (found by the rules engine) win two stars of
// three. The practice game starts from the position the stage reached,
// the computer's last reply played (from the stage's start after the
// loss).
func TestBrowserHoldOut(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "holder")
	p.goTo(base + "/learn/magneton")
	p.openLesson("drop")
	p.click(`.lesson-list li[data-lesson="hold-out"] button`)
	p.openLesson("hold-out")
	st := eval[[]holdStage](p, fmt.Sprintf(`%s('magneton')`, holdStagesScript))
	i := slices.IndexFunc(st, func(s holdStage) bool { return s.At == "hold-out:0" })
	if i < 0 {
		t.Fatal("no stage hold-out:0")
	}
	start, err := stageState(st[i])
	if err != nil {
		t.Fatal(err)
	}
	// The trap: a2-e2 holds one move, not two.
	line := p.holdMove(start, "a2-e2")
	_, lose := holdingMove(line, 1)
	if lose == "" {
		t.Fatalf("after a2-e2 and the computer's answer no move loses at once in %s", line)
	}
	p.boardPlay(".lesson", lose)
	if msg := p.lessonMsg("wrong"); !strings.Contains(msg, "The game ended:") {
		t.Errorf("the loss is explained as %q", msg)
	}
	// A game lost is no position to practise from: the stage's start.
	if at := eval[string](p, `document.querySelector('.lesson .practice').dataset.position`); at != start.String() {
		t.Errorf("after the loss the practice game starts from %q, not the stage's start %q", at, start.String())
	}
	p.click(".lesson .retry")
	p.openLesson("hold-out")
	line = p.holdMove(start, "e4-e6")
	hold, _ := holdingMove(line, 1)
	if hold == "" {
		t.Fatalf("no move holds after the computer's answer in %s", line)
	}
	p.boardPlay(".lesson", hold)
	if msg := p.lessonMsg("right"); !strings.Contains(msg, "2 of 3 stars") {
		t.Errorf("held out at the second try: %q", msg)
	}
	// The practice game: from the position after the computer's last reply.
	before, err := line.Play(hold)
	if err != nil {
		t.Fatal(err)
	}
	at := eval[string](p, `document.querySelector('.lesson .practice').dataset.position`)
	reached := slices.ContainsFunc(before.Moves(), func(r string) bool {
		s, err := before.Play(r)
		return err == nil && s.String() == at
	})
	if !reached {
		t.Errorf("the practice game starts from %q, not a position after %s and a reply", at, hold)
	}
	href := eval[string](p, `document.querySelector('.lesson .practice').getAttribute('href')`)
	if u, err := url.Parse(href); err != nil || u.Query().Get("position") != at || u.Query().Get("color") != "first" {
		t.Errorf("the practice link is %q for the position %q", href, at)
	}
	p.goTo(base + href)
	p.waitFor("the practice game from the position reached", fmt.Sprintf(`window.computerGame && window.computerGame.state && window.computerGame.state.start === %q`, at), 20*time.Second)
	p.checkConsole()
}

// holdMove plays the learner's move m in a stage to hold out starting at
// start, waits for the computer's answer and returns the position after
// it, by the rules engine.
func (p *page) holdMove(start game.State, m string) game.State {
	p.t.Helper()
	p.boardPlay(".lesson", m)
	p.waitFor("the computer's answer", `(e => e && /answers \S+\./.test(e.textContent) && document.querySelector('.lesson .board.interactive'))(document.querySelector('.lesson .lesson-msg.answered'))`, 30*time.Second)
	got := answeredRe.FindStringSubmatch(eval[string](p, `document.querySelector('.lesson .lesson-msg.answered').textContent`))
	if got == nil {
		p.t.Fatal("no reply in the message")
	}
	s, err := playAll(start, []string{m, got[1]})
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

// TestBrowserHoldOutTumbling: Tumbling Down's lesson "Hold out for two
// moves" held at the first try against the computer's best replies, the
// learner's second move found by the rules engine: three stars, and the
// practice game offered from the position reached.
func TestBrowserHoldOutTumbling(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "king-keeper")
	p.goTo(base + "/learn/tumbling-down")
	p.openLesson("step")
	p.click(`.lesson-list li[data-lesson="hold-out"] button`)
	p.openLesson("hold-out")
	line, hold := p.holdOut("tumbling-down", "held out")
	before, err := line.Play(hold)
	if err != nil {
		t.Fatal(err)
	}
	at := eval[string](p, `document.querySelector('.lesson .practice').dataset.position`)
	if !slices.ContainsFunc(before.Moves(), func(r string) bool {
		s, err := before.Play(r)
		return err == nil && s.String() == at
	}) {
		t.Errorf("the practice game starts from %q, not a position after %s and a reply", at, hold)
	}
	p.checkConsole()
}

// holdOut plays the open lesson's stage hold-out:0 of a game to the end:
// the solution's first move, the computer's answer, and a second move that
// holds, found by the rules engine. It checks the three stars (what says
// which test) and returns the position before the second move and that
// move.
func (p *page) holdOut(gameName, what string) (game.State, string) {
	p.t.Helper()
	stages := eval[[]holdStage](p, fmt.Sprintf(`%s('%s')`, holdStagesScript, gameName))
	i := slices.IndexFunc(stages, func(s holdStage) bool { return s.At == "hold-out:0" })
	if i < 0 {
		p.t.Fatal("no stage hold-out:0")
	}
	start, err := stageState(stages[i])
	if err != nil {
		p.t.Fatal(err)
	}
	line := p.holdMove(start, stages[i].Solution[0])
	hold, _ := holdingMove(line, 1)
	if hold == "" {
		p.t.Fatalf("no move holds after the computer's answer in %s", line)
	}
	p.boardPlay(".lesson", hold)
	if msg := p.lessonMsg("right"); !strings.Contains(msg, "3 of 3 stars") {
		p.t.Errorf("%s: %q", what, msg)
	}
	return line, hold
}
