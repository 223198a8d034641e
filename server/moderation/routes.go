package moderation

import "net/http"

// Routes adds the moderation API to mux.
func (m *Moderation) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/reports", m.handleReport)
	mux.HandleFunc("GET /api/blocks", m.handleBlocks)
	mux.HandleFunc("POST /api/blocks/{name}", m.handleBlock)
	mux.HandleFunc("GET /api/mod/reports", m.handleReports)
	mux.HandleFunc("POST /api/mod/reports/{id}/close", m.handleCloseReport)
	mux.HandleFunc("POST /api/mod/users/{name}", m.handleUserAction)
	mux.HandleFunc("POST /api/mod/users/{name}/reset-link", m.handleResetLink)
	mux.HandleFunc("POST /api/mod/games/{id}/void", m.handleVoid)
	mux.HandleFunc("GET /api/mod/log", m.handleLog)
}
