// Package web holds the browser front end of the play server: plain HTML,
// CSS and JavaScript modules, embedded in the binary so that nothing is
// fetched or built at run time (no Node, no bundler, no library).
//
// The page is one index.html; js/app.js routes /g/<id> to the game view,
// /@/<name> to a player's profile, /analysis to the analysis board,
// /learn and /puzzles to the learning pages, /computer to a game against
// the computer in the browser, and the hash routes of / (#/archive,
// #/leaderboard) to the other views:
//
//	js/api.js       the JSON API of docs/protocol.md
//	js/nav-menu.js  the header's Menu button on a phone: a disclosure
//	                whose panel holds the site's links and the language
//	                switch
//	js/socket.js    a game's WebSocket, reconnecting with backoff
//	js/notation.js  squares (numbered file-major, as in Go), moves and the
//	                rows of position texts, for any game
//	js/games.js     finds a game's module by the name the server gives and
//	                loads it (and its style sheet); its comment is the
//	                interface every game module exports
//	js/games/<name>.js, css/games/<name>.css
//	                one game's front end: reading its positions, drawing
//	                and animating them, its player bars, move entry and
//	                the wording of its endings
//	js/board.js     the board: squares, marks, click-click and drag (pointer
//	                events, so touch too), the chooser when two squares fit
//	                several moves, the end-of-game marks, a move's preview,
//	                the stack inspector and the editor's clicks; the pieces
//	                and those marks come from the game's module;
//	                js/board-keys.js its keyboard (a cursor, Enter, Escape,
//	                the chooser), js/board-speech.js its squares in words
//	js/game-speech.js  the game page for a screen reader: the live log of
//	                moves and the end, the read-out commands, the clocks in
//	                words (docs/accessibility.md)
//	js/home.js      new game (rated or casual), quick pairing, your games,
//	                the lobby (open games, refreshed every 2 s), live games
//	js/game.js      the live game: players, clocks, moves, replay, actions
//	js/archive.js   the archive: finished games, played here or
//	                imported, found by a search (a player, a result,
//	                days, rules, a position) whose state is the URL
//	js/engine.js    the browser's engine: engine/worker.js, a Web Worker
//	                running package engine compiled to WebAssembly
//	                (engine/engine.wasm.gz, built by go generate, served
//	                under a content-hashed name), its calls, and the
//	                server's API while it loads or where it cannot run
//	                (docs/engine-worker.md)
//	js/analysis.js  the analysis board: a tree of variations played by
//	                the rules (js/engine.js), the engine's evaluation,
//	                lines and arrows (js/board-arrows.js), the position
//	                editor, the record and image exported
//	js/review.js    the game review on a finished game's page: its request,
//	                progress, evaluation graph (js/chart.js) and marked moves
//	js/explorer.js  the analysis board's opening explorer: the moves
//	                played from the position in the archive, their
//	                results, ratings and proven values
//	css/analysis.css  the styles of those and of the board's marks
//	css/explorer.css  the opening explorer's and the game search's
//	css/phone.css   every page's layout at phone widths (designed at
//	                390 × 844, measured by e2e/phone_test.go), linked
//	                after the others so that its rules win
//	js/account.js   the header's account box: guest name, sign-up, log-in,
//	                log-out, password change
//	js/players.js   players as the pages show them: names, profile links,
//	                ratings and their changes
//	js/profile.js   a player's profile; js/chart.js its rating graph (SVG)
//	js/leaderboard.js  the best ratings of each game and rating family
//	js/sound.js     the game page's tones (a move, a capture, the end, low
//	                time, a chat line, an offer), made with Web Audio, with
//	                a volume and the switch that keeps them off
//	js/chat.js      the game page's chat: the two rooms, mute, chat off,
//	                lines shown as text only
//	js/prefs.js     the choices kept in the browser (chat, muted names,
//	                confirm moves, screen-reader mode)
//	js/notify.js    the tab's icon on your turn, and notifications when the
//	                tab is hidden (with the browser's permission)
//	js/learn.js     /learn and /learn/<game>: the rules in words with live
//	                diagrams, and the lessons (checked by POST /api/play);
//	                js/games/<name>-learn.js hold each game's texts
//	js/puzzles.js   /puzzles (the puzzles, their retries and themes, the
//	                streak) and the home page's daily puzzle;
//	                js/puzzles-history.js an account's history of puzzles
//	                with its rating graph; js/puzzles-kept.js the puzzles
//	                kept for offline and the results waiting for the network
//	js/engine.js    the browser's engine (engine/worker.js running the
//	                WebAssembly build of package engine): play, analyse,
//	                the computer's move
//	js/computer.js  /computer: a whole game against the browser's engine,
//	                not recorded on the server, which works offline
//	js/offline.js   the service worker's registration, the offline banner,
//	                the views standing in for pages that need the network,
//	                and what is sent when it is back
//	sw.js           the service worker (served as /sw.js by
//	                server/offline, which fills in its list of files and
//	                its version), manifest.webmanifest and icons/ the
//	                installed site's (docs/offline.md)
//	js/i18n.js, js/i18n/<lang>.js  the catalogue of the front end's words
//	                in English, Spanish, Italian and Esperanto, t(key, vars),
//	                tn for counts (Intl.PluralRules), the wording of the
//	                server's refusals (err.<code>, why.<why_code>), and the
//	                tests' pseudo-locale (?lang=xx, e2e/pseudo_test.go)
//
// The server sends index.html in the visitor's language (server/page):
// its lang, title and first words, marked data-t, from these catalogues.
//
// The browser tests in package e2e drive it in Chromium against the real
// server.
package web

import (
	"embed"
	"io/fs"
)

//go:generate go run ../tools/buildengine

//go:embed static
var static embed.FS

// Files is the front end's file tree, rooted so that index.html is at its
// top. The server serves it for every path that is not an API route, and
// answers /g/<id> with index.html (the page reads the game id from the URL).
var Files fs.FS = mustSub(static, "static")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}
