package archive

import (
	"net/http"

	"github.com/magneton-games/magneton/server/jsonapi"
)

// handleExplorer is being written (issue 41).
func (s *Service) handleExplorer(w http.ResponseWriter, r *http.Request) {
	jsonapi.WriteCoded(w, http.StatusNotImplemented, "not_yet", "not yet")
}
