package accounts

import "net/http"

// Routes adds the account API to mux.
func (a *Accounts) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/account", a.handleAccount)
	mux.HandleFunc("POST /api/account/signup", a.handleSignup)
	mux.HandleFunc("POST /api/account/login", a.handleLogin)
	mux.HandleFunc("POST /api/account/logout", a.handleLogout)
	mux.HandleFunc("POST /api/account/password", a.handlePassword)
	mux.HandleFunc("POST /api/account/email", a.handleEmail)
	mux.HandleFunc("POST /api/account/forgot", a.handleForgot)
	mux.HandleFunc("POST /api/account/reset", a.handleReset)
	mux.HandleFunc("GET /api/account/sessions", a.handleSessions)
	mux.HandleFunc("POST /api/account/sessions/logout", a.handleEndSessions)
	mux.HandleFunc("POST /api/account/delete", a.handleDelete)
	mux.HandleFunc("GET /api/account/data", a.handleData)
}
