package analysis

import "net/http"

// Routes adds the engine's API to mux.
func (a *Analysis) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/analyze", a.handleAnalyze)
	mux.HandleFunc("POST /api/play", a.handlePlay)
	mux.HandleFunc("POST /api/import", a.handleImport)
	mux.HandleFunc("GET /api/games/{id}/review", a.handleReview)
	mux.HandleFunc("POST /api/games/{id}/review", a.handleStartReview)
}
