package server

import (
	"context"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/server/jsonapi"
)

// routes adds the server's own routes to mux: health, readiness, the
// games' description, and the front end.
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	mux.HandleFunc("GET /api/meta", s.handleMeta)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		jsonapi.WriteError(w, http.StatusNotFound, "no such API: "+r.Method+" "+r.URL.Path)
	})
	mux.HandleFunc("/", s.handleStatic)
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		if r.Context().Err() != nil {
			// The prober gave up first: its own time limit, not the
			// database's fault (yet).
			s.log.Warn("health check: the prober left before the database answered", "err", err)
		} else {
			s.log.Error("health check", "err", err)
		}
		http.Error(w, "database not answering", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
}

// handleReady answers whether the instance takes new clients: not while
// it drains for a shutdown (a load balancer then sends them elsewhere).
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.closing.Load() || s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "draining\n")
		return
	}
	io.WriteString(w, "ready "+s.cfg.Instance+"\n")
}

type (
	metaSide struct {
		Name   string `json:"name"`
		Letter string `json:"letter"`
	}
	metaOption struct {
		Name    string   `json:"name"`
		Values  []string `json:"values"`
		Summary string   `json:"summary"`
	}
	metaVariant struct {
		Name    string `json:"name"`
		Summary string `json:"summary"`
	}
	metaEnding struct {
		Word string `json:"word"`
		Text string `json:"text"`
	}
	metaFormat struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	}
	metaBoard struct {
		Files int `json:"files"`
		Ranks int `json:"ranks"`
	}
	metaGame struct {
		Name    string   `json:"name"`
		Aliases []string `json:"aliases"`
		Title   string   `json:"title"`
		// Titles: the game's name in other languages, where it has one.
		Titles map[string]string `json:"titles"`
		Sides  [2]metaSide       `json:"sides"`
		// Board is the board's size; squares are numbered file-major (a1 =
		// 0, a2 = 1, ..., b1 = ranks), as game.Board says.
		Board    metaBoard     `json:"board"`
		Options  []metaOption  `json:"options"`
		Variants []metaVariant `json:"variants"`
		Endings  []metaEnding  `json:"endings"`
		Formats  []metaFormat  `json:"formats"`
		Start    string        `json:"start"`
		// LevelRatings: the computer levels' approximate ratings, level 1
		// first.
		LevelRatings [8]int `json:"level_ratings"`
	}
	metaLevel struct {
		Level int    `json:"level"`
		Name  string `json:"name"`
	}
)

// describe is a registered game as the meta describes it.
func describe(gm *games.Game) metaGame {
	sp := gm.Spec
	mg := metaGame{Name: sp.Name, Aliases: append([]string{}, sp.Aliases...), Title: sp.Title, Titles: map[string]string{}, Options: []metaOption{}, Variants: []metaVariant{},
		Board: metaBoard{sp.Board.Files, sp.Board.Ranks},
		Start: sp.New(sp.Defaults()).Start().String(), LevelRatings: gm.AI.LevelRatings()}
	maps.Copy(mg.Titles, sp.Titles)
	for _, e := range sp.AllEndings() {
		mg.Endings = append(mg.Endings, metaEnding{e.Word, e.Text})
	}
	for _, f := range record.Formats(sp) {
		mg.Formats = append(mg.Formats, metaFormat{f.Name, f.Title})
	}
	for i := range mg.Sides {
		mg.Sides[i] = metaSide{sp.SideNames[i], sp.SideLetters[i]}
	}
	for _, o := range sp.Options {
		mg.Options = append(mg.Options, metaOption{o.Name, o.Values, o.Summary})
	}
	for _, v := range sp.Variants {
		mg.Variants = append(mg.Variants, metaVariant{v.Name, v.Summary})
	}
	return mg
}

func (s *Server) handleMeta(w http.ResponseWriter, r *http.Request) {
	var out struct {
		Games  []metaGame  `json:"games"`
		Levels []metaLevel `json:"levels"`
		// ServerComputer: the server's computer plays games (off, only
		// the browser's engine does: Config.NoServerComputer).
		ServerComputer bool `json:"server_computer"`
	}
	out.ServerComputer = !s.cfg.NoServerComputer
	for _, gm := range games.All() {
		out.Games = append(out.Games, describe(gm))
	}
	for i, n := range ai.LevelNames {
		out.Levels = append(out.Levels, metaLevel{i + 1, n})
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// gameTitles are the registered games' titles in a language.
func gameTitles(lang string) []string {
	var out []string
	for _, gm := range games.All() {
		t := gm.Spec.Title
		if own, ok := gm.Spec.Titles[lang]; ok {
			t = own
		}
		out = append(out, t)
	}
	return out
}

// handleStatic serves the front end: a file of the tree if the path names
// one, else index.html (the single-page app reads /g/<id> itself).
func (s *Server) handleStatic(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		jsonapi.WriteError(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	static := s.cfg.Static
	if static == nil {
		jsonapi.WriteError(w, http.StatusNotFound, "this server has no front end")
		return
	}
	if s.engine.Serves(r.URL.Path) {
		s.engine.ServeHTTP(w, r)
		return
	}
	if s.book.Serves(r.URL.Path) {
		s.book.ServeHTTP(w, r)
		return
	}
	if s.offline.Serves(r.URL.Path) {
		s.offline.ServeHTTP(w, r)
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" || name == "." || name == "index.html" || isPage(name) {
		s.serveIndex(w, r)
		return
	}
	if st, err := fs.Stat(static, name); err == nil && !st.IsDir() {
		http.ServeFileFS(w, r, static, name)
		return
	}
	jsonapi.WriteError(w, http.StatusNotFound, "not found: "+r.URL.Path)
}

// isPage reports whether a path (without its leading /) is one of the
// front end's views rather than a file: a game (g/<id>), a profile
// (@/<name>), the analysis board (analysis, analysis/...), a game's
// rules and lessons (learn, learn/<game>), the puzzles, the game against
// the computer in the browser (computer), the moderators' page (mod), the
// tournaments (tournaments, tournaments/<id>), and
// the page that sets a password with a link (reset).
func isPage(name string) bool {
	first, rest, below := strings.Cut(name, "/")
	switch first {
	case "g", "@":
		return below && rest != ""
	case "analysis", "learn", "puzzles", "computer", "mod", "tournaments":
		return true
	case "reset":
		return !below
	}
	return false
}

// pagePattern is isPage as a regular expression of a URL's path (with its
// leading /, the home page and index.html too), for the service worker,
// which answers these paths with the page it kept when offline; it is
// written in the syntax that Go and JavaScript share, and TestPagePattern
// holds it to isPage.
const pagePattern = `^/(?:index\.html|(?:g|@)/.+|(?:analysis|learn|puzzles|computer|mod|tournaments)(?:/.*)?|reset/?)?$`

// serveIndex answers with index.html in the visitor's language (package
// page).
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	s.index.Serve(w, r)
}
