package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// checkLessonsScript checks, in the page, every lesson, stage and quiz
// question of a game with the rules engine the page uses (the server's
// POST /api/play while the browser's engine loads, the same answers): the
// stage's start is a position of the game that is not over; its solution
// (the learner's moves and the replies between them) is legal, reaches the
// goal with its last move and not before, with as many moves of the
// learner as the par; no move wins sooner than the par; a stage to hold
// out leaves the opponent no winning reply; its hint names no square its
// answer goes to (unless the task does); each scripted reply, wrong
// answer, refutation and move said to be illegal, losing or not winning
// is as said (a stage to hold out's losing moves, which may lose only
// later, are proved by TestDefencesByTheEngine); and each quiz answer is
// the rules engine's. The problems
// found go to window.lessonCheck (with the count of stages checked).
const checkLessonsScript = `(async (game) => {
	const { play, stagesOf, judge } = await import('/js/learn-drill.js');
	const { engineAnswer } = await import('/js/learn-quiz.js');
	const { loadGame, gridFor } = await import('/js/games.js');
	const lm = await import('/js/games/' + game + '-learn.js');
	const mod = await loadGame(game);
	const out = [];
	let stages = 0;
	const wins = (r, side) => (r.result === '1-0' && side === 0) || (r.result === '0-1' && side === 1);
	const tryPlay = (st, moves) => play(game, st.position, [...(st.history || []), ...moves], st.rules || '').catch((err) => ({ error: err.code || err.message }));
	for (const lesson of lm.lessons) {
		for (const [s, st] of stagesOf(lesson).entries()) {
			const at = lesson.id + ':' + s;
			stages++;
			const start = await tryPlay(st, []);
			if (start.error || start.result !== '*') { out.push(at + ': the start ' + (start.error || start.result)); continue; }
			const side = start.turn;
			const sol = st.solution || [];
			if (!sol.length) { out.push(at + ': no solution'); continue; }
			const learner = Math.ceil(sol.length / 2);
			// A hint points the way: it names no square the answer goes to
			// that the task does not name itself.
			for (let i = 0; i < sol.length; i += 2) {
				const to = (sol[i].match(/[a-h][1-8]/g) || []).pop();
				const hint = lm.texts.en[st.hint] || Object.assign({}, ...(lm.moreTexts || []).map((x) => x.en))[st.hint] || '';
				const task = lm.texts.en[st.task] || Object.assign({}, ...(lm.moreTexts || []).map((x) => x.en))[st.task] || '';
				if (!hint) out.push(at + ': no hint');
				if (to && new RegExp('\\b' + to + '\\b').test(hint) && !new RegExp('\\b' + to + '\\b').test(task)) out.push(at + ': the hint names the answer square ' + to + ': ' + hint);
			}
			if (typeof st.goal === 'string' && st.goal !== 'survive' && learner !== (st.par || 1)) out.push(at + ': the solution takes ' + learner + ' moves, the par is ' + (st.par || 1));
			for (let i = 0; i < sol.length; i++) {
				const r = await tryPlay(st, sol.slice(0, i + 1));
				if (r.error) { out.push(at + ': solution move ' + (i + 1) + ' ' + sol[i] + ': ' + r.error); break; }
				const mine = i % 2 === 0;
				if (!mine && st.replies && st.replies[sol.slice(0, i).join(' ')] && st.replies[sol.slice(0, i).join(' ')] !== sol[i]) out.push(at + ': the script answers otherwise than the solution at ' + (i + 1));
				const v = judge(st, r, side, Math.ceil((i + 1) / 2), mine, sol[i], mod.parse(r.position, gridFor(mod)));
				const last = i === sol.length - 1;
				// A stage to hold out is done after the reply, which the check below tries all of.
				const held = st.goal === 'survive' && mine && v === '';
				if (last && v !== 'done' && !held) out.push(at + ': the solution ends ' + (v || 'with the goal not reached') + ' (' + r.result + ' ' + r.reason + ')');
				if (!last && v) out.push(at + ': the solution is ' + v + ' at move ' + (i + 1));
				if (last && st.goal === 'survive') {
					for (const reply of r.legal) {
						const r2 = await tryPlay(st, [...sol, reply]);
						if (r2.error || wins(r2, 1 - side)) out.push(at + ': the reply ' + reply + ' ' + (r2.error || 'wins'));
					}
				}
			}
			if (st.goal === 'win' && (st.par || 1) > 1) {
				for (const m of start.legal) {
					const r = await tryPlay(st, [m]);
					if (wins(r, side)) out.push(at + ': ' + m + ' wins sooner than the par');
				}
			}
			for (const [k, reply] of Object.entries(st.replies || {})) {
				const r = await tryPlay(st, [...k.split(' '), reply]);
				if (r.error) out.push(at + ': the scripted reply ' + reply + ' after ' + k + ': ' + r.error);
			}
			for (const m of Object.keys(st.wrongs || {})) {
				const r = await tryPlay(st, [m]);
				if (r.error || judge(st, r, side, 1, true, m, mod.parse(r.position, gridFor(mod))) === 'done') out.push(at + ': the wrong answer ' + m + ' is ' + (r.error || 'right'));
			}
			for (const [m, reply] of Object.entries(st.refute || {})) {
				const r = await tryPlay(st, [m, reply]);
				if (r.error || !wins(r, 1 - side)) out.push(at + ': the refutation ' + m + ' ' + reply + ' ' + (r.error || 'does not win'));
			}
			for (const m of st.illegal || []) {
				const r = await tryPlay(st, [m]);
				if (r.error !== 'illegal_move') out.push(at + ': ' + m + ' is legal');
			}
			for (const m of st.notWinning || []) {
				const r = await tryPlay(st, [m]);
				if (r.error || wins(r, side)) out.push(at + ': ' + m + ' ' + (r.error || 'wins'));
			}
			// A stage to hold out's losing moves lose later: TestDefencesByTheEngine proves them.
			for (const m of st.goal === 'survive' ? [] : st.losing || []) {
				const r = await tryPlay(st, [m]);
				if (r.error || !wins(r, 1 - side)) out.push(at + ': ' + m + ' ' + (r.error || 'does not lose'));
			}
		}
	}
	for (const [i, q] of (lm.quiz || []).entries()) {
		const truth = await engineAnswer(game, q).catch((err) => 'error ' + err.message);
		if (truth !== q.answer) out.push('quiz ' + (i + 1) + ' (' + q.move + ' ' + q.ask + '): the rules engine says ' + truth);
	}
	window.lessonCheck = { problems: out, stages, questions: (lm.quiz || []).length };
})`

// TestLessonsByTheEngine: every lesson, stage and quiz question of both
// games, as checkLessonsScript checks them with the rules engine.
func TestLessonsByTheEngine(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "checker")
	p.goTo(base + "/learn")
	for _, game := range []string{"magneton", "tumbling-down"} {
		p.waitFor("the page", `document.querySelector('.learn-cards')`, 10*time.Second)
		eval[bool](p, fmt.Sprintf(`(window.lessonCheck = null, %s(%q).catch((e) => { window.lessonCheck = { problems: ['the check failed: ' + e.message], stages: 0 }; }), true)`, checkLessonsScript, game))
		p.waitFor("the lessons of "+game+" checked", `window.lessonCheck`, 120*time.Second)
		got := eval[struct {
			Problems  []string
			Stages    int
			Questions int
		}](p, `window.lessonCheck`)
		for _, pr := range got.Problems {
			t.Errorf("%s: %s", game, pr)
		}
		if got.Stages < 12 || got.Questions < 8 {
			t.Errorf("%s: %d stages and %d quiz questions checked, fewer than the lessons have", game, got.Stages, got.Questions)
		}
		t.Logf("%s: %d stages and %d quiz questions checked", game, got.Stages, got.Questions)
	}
	p.checkConsole()
}

// stageStars is a script that returns the stars shown for each stage of
// the lesson on the page.
const stageStars = `[...document.querySelectorAll('.lesson .stage-list li')].map((li) => Number(li.dataset.stars))`

// TestBrowserDrill: a newcomer works through the Magneton lesson "No move
// left": a win in one by leaving Black no move, a drill of two moves in
// which the computer answers (its only move), and the same block under
// the option no-moves=draw; each stage at par wins three stars, shown in
// the lesson and in the list, and kept over a reload, and counted on the
// list of games. A practice game starts from the lesson's position
// against the computer.
func TestBrowserDrill(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "driller")
	p.goTo(base + "/learn/magneton")
	p.openLesson("drop")
	p.click(`.lesson-list li[data-lesson="blocked"] button`)
	p.openLesson("blocked")
	if got := eval[[]int](p, stageStars); len(got) != 3 || got[0] != 0 {
		t.Fatalf("the stages before any: %v", got)
	}
	for _, st := range []struct {
		moves []string
		reply string
	}{{[]string{"h1-b1"}, ""}, {[]string{"c4-c1", "c1-a1"}, "d5-g2"}, {[]string{"h1-b1"}, ""}} {
		for i, m := range st.moves {
			p.boardPlay(".lesson", m)
			if i+1 < len(st.moves) {
				p.waitFor("the computer's answer", fmt.Sprintf(`(e => e && e.textContent.includes('Black answers %s'))(document.querySelector('.lesson .lesson-msg.answered'))`, st.reply), 20*time.Second)
			}
		}
		msg := p.lessonMsg("right")
		if !strings.Contains(msg, "3 of 3 stars") {
			t.Errorf("stage done with %v: %q", st.moves, msg)
		}
		p.click(".lesson .next")
		p.waitFor("the next stage or lesson", `document.querySelector('.lesson .board.interactive') && !document.querySelector('.lesson .lesson-msg.right')`, 10*time.Second)
	}
	// Fewer stars for more moves (or more tries at a one-move task).
	if got := eval[[]int](p, `import('/js/learn-drill.js').then(({ starsFor }) => [
		starsFor({ goal: 'win', par: 2 }, 2, 1), starsFor({ goal: 'win', par: 2 }, 3, 1), starsFor({ goal: 'win', par: 2 }, 4, 1),
		starsFor({ goal: () => true }, 1, 1), starsFor({ goal: () => true }, 1, 2), starsFor({ goal: 'survive', par: 1 }, 1, 3)])`); fmt.Sprint(got) != "[3 2 1 3 2 1]" {
		t.Errorf("the stars for par, one over, two over, first try, second try, third try: %v", got)
	}
	p.waitFor("the lesson solved in the list", `(li => li && li.classList.contains('done') && li.querySelector('.lesson-stars[data-stars="3"]'))(document.querySelector('.lesson-list li[data-lesson="blocked"]'))`, 10*time.Second)

	p.goTo(base + "/learn/magneton")
	p.openLesson("drop")
	p.click(`.lesson-list li[data-lesson="blocked"] button`)
	p.openLesson("blocked")
	if got := eval[[]int](p, stageStars); len(got) != 3 || got[0] != 3 || got[1] != 3 || got[2] != 3 {
		t.Errorf("after a reload the stages' stars are %v", got)
	}
	if !eval[bool](p, `!!document.querySelector('.lesson-list li[data-lesson="blocked"].done .lesson-stars[data-stars="3"]')`) {
		t.Error("after a reload the lesson is not shown solved with three stars")
	}
	href := eval[string](p, `document.querySelector('.lesson .practice').getAttribute('href')`)
	p.goTo(base + href)
	p.waitFor("the practice game from the lesson's position", `window.computerGame && window.computerGame.state && window.computerGame.state.start === '8/8/8/8/8/8/WW6/B6W w 0 0'`, 20*time.Second)
	// The list of games counts the stars won: nine, three stages at par.
	p.goTo(base + "/learn")
	p.waitFor("the stars counted on the list of games", `document.querySelector('.learn-card[data-game="magneton"] .learn-stars[data-stars="9"]')`, 10*time.Second)
	p.checkConsole()
}

// TestBrowserDrillOnAccount: the stars a guest wins go to the account it
// signs up for, and those won logged in are saved on it (the server's
// GET /api/account/learn-stars); the rules quiz answers with the rules
// engine and counts the right answers.
func TestBrowserDrillOnAccount(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "starry")
	p.goTo(base + "/learn/magneton")
	p.openLesson("drop")
	p.click(`.lesson-list li[data-lesson="weak"] button`)
	p.openLesson("weak")
	p.boardPlay(".lesson", "d2")
	if msg := p.lessonMsg("right"); !strings.Contains(msg, "3 of 3 stars") {
		t.Errorf("the weak-force win: %q", msg)
	}
	p.signUp(base, "starry", "stars-pass-1")
	p.goTo(base + "/learn/magneton")
	p.openLesson("drop")
	p.waitFor("the guest's stars on the account", `fetch('/api/account/learn-stars').then(r => r.json()).then(m => (m.magneton || {})['weak:0'] === 3)`, 10*time.Second)
	p.click(`.lesson-list li[data-lesson="repetition"] button`)
	p.openLesson("repetition")
	p.boardPlay(".lesson", "d3-d7")
	if msg := p.lessonMsg("right"); !strings.Contains(msg, "Third time") {
		t.Errorf("the draw by repetition: %q", msg)
	}
	p.waitFor("the progress saved", `window.learnSaving === 0`, 10*time.Second)
	p.waitFor("the stars saved on the account", `fetch('/api/account/learn-stars').then(r => r.json()).then(m => (m.magneton || {})['repetition:0'] === 3)`, 10*time.Second)

	// The quiz: the first question right, the second wrong.
	p.waitFor("the quiz", `document.querySelector('.quiz .quiz-yes')`, 10*time.Second)
	p.click(".quiz .quiz-yes")
	p.waitFor("the first answer", `(e => e && e.textContent.startsWith('Right.'))(document.querySelector('.quiz .quiz-out.right'))`, 10*time.Second)
	p.click(".quiz .quiz-next")
	p.waitFor("the second question", `document.querySelector('.quiz .quiz-body').dataset.q === '1' && !document.querySelector('.quiz .quiz-yes').disabled`, 10*time.Second)
	p.click(".quiz .quiz-yes")
	p.waitFor("the second answer", `(e => e && e.textContent.includes('already touches'))(document.querySelector('.quiz .quiz-out.wrong'))`, 10*time.Second)
	p.checkConsole()
}
