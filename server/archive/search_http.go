package archive

import (
	"net/http"

	"github.com/magneton-games/magneton/server/jsonapi"
)

// handleSearch is being written (issue 41).
func (s *Service) handleSearch(w http.ResponseWriter, r *http.Request) {
	jsonapi.WriteCoded(w, http.StatusNotImplemented, "not_yet", "not yet")
}
