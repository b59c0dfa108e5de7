package server

import "net/http"

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	b, err := webFS.ReadFile("web/openapi.json")
	if err != nil {
		writeError(w, http.StatusInternalServerError, "the OpenAPI document is missing from this build")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
