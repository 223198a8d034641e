package lobby

import "net/http"

// Routes adds the games' API to mux.
func (l *Lobby) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/games", l.handleCreate)
	mux.HandleFunc("GET /api/games", l.handleList)
	mux.HandleFunc("GET /api/games/{id}", l.handleState)
	mux.HandleFunc("POST /api/games/{id}/join", l.handleJoin)
	mux.HandleFunc("POST /api/games/{id}/cancel", l.handleCancel)
	mux.HandleFunc("GET /api/games/{id}/record", l.handleRecord)
	mux.HandleFunc("GET /api/my-games", l.handleMyGames)
	mux.HandleFunc("POST /api/challenges", l.handleChallenge)
	mux.HandleFunc("POST /api/challenges/{id}/accept", l.handleAccept)
	mux.HandleFunc("POST /api/challenges/{id}/decline", l.handleDecline)
}
