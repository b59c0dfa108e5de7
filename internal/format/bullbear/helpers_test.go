package bullbear_test

import (
	"encoding/json"

	"github.com/parleyhq/parley/internal/sec/analysis"
)

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func analysisAssess(r *analysis.Report) *analysis.Evidence { return analysis.Assess(r) }
