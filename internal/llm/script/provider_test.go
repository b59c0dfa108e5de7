package script_test

import (
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/script"
)

func TestConformance(t *testing.T) {
	llmtest.RunScripted(t, func(t *testing.T, sc *script.Script, d time.Duration) llm.Provider {
		return script.NewProvider(sc, script.WithTokenDelay(d))
	})
}
