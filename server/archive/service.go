package archive

import (
	"log/slog"
	"net/http"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/store"
)

// Config is what the archive's API needs.
type Config struct {
	Store      store.Store
	Identities *identity.Resolver
	Clients    *limits.Clients
	Proxies    limits.Proxies
	Logger     *slog.Logger
}

// Service answers the archive's API: the opening explorer, the game
// search and the import of records.
type Service struct {
	cfg Config
}

// New makes the archive's handlers.
func New(cfg Config) *Service { return &Service{cfg: cfg} }

// Routes adds the archive's API to mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/explorer", s.handleExplorer)
	mux.HandleFunc("GET /api/archive/games", s.handleSearch)
	mux.HandleFunc("POST /api/archive/import", s.handleImport)
}
