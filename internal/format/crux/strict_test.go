package crux

import (
	"testing"

	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm"
)

func TestSchemasStrict(t *testing.T) {
	formattest.StrictSchemas(t, map[string]*llm.Schema{
		"moveSchema": moveSchema(), "frameSchema": frameSchema(), "proposalsSchema": proposalsSchema(),
		"crystalSchema": crystalSchema(), "castSchema": castSchema(),
	})
}
