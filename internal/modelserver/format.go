package modelserver

import (
	"fmt"
	"net/http"
	"slices"
)

// responseFormat is the response_format of a chat request; Type is
// "json_schema", "json_object" or "text".
type responseFormat struct {
	Type string `json:"type"`
}

// refuseFormat answers 400 when the request asks for a response format the
// server is configured to refuse (Config.RejectFormats), as servers without
// structured output do. It reports whether it answered.
func (s *Server) refuseFormat(w http.ResponseWriter, rf *responseFormat) bool {
	if rf == nil || !slices.Contains(s.cfg.RejectFormats, rf.Type) {
		return false
	}
	s.badRequest(w, fmt.Sprintf("response_format type %q is not supported by this server", rf.Type))
	return true
}

// malformedUnder returns the malformed planner answer of variant as a
// model writes it under response format format, or false when that format
// rules it out. Constrained decoding keeps the answer inside what the
// format allows: json_object forces one JSON object (no broken JSON, no
// prose around it) but any keys and values; json_schema also forces the
// schema's statuses and keys. What the schema cannot say ("planned" needs a
// plan) still gets through.
func malformedUnder(format string, variant int) (string, bool) {
	switch format {
	case "json_schema":
		if variant != 1 {
			return "", false
		}
		return malformedPlanner(variant), true
	case "json_object":
		switch variant {
		case 0:
			return "", false
		case 2:
			return `{"status":"maybe","thoughts":"I could do it later"}`, true
		}
	}
	return malformedPlanner(variant), true
}
