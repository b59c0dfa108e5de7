package app

import (
	"slices"
	"strings"
)

// noteDataOnly tells the person starting a debate whose agents are partly
// or wholly Parley's data-only agents why, and how to change it; the cast
// line the front-end prints next says which roles they are, so this does
// not say it again. On a resume the cast is the recorded one, whatever the
// environment offers, and the cast line alone is right.
func (a *App) noteDataOnly(offline bool, dataOnly []string) {
	if len(dataOnly) == 0 {
		return
	}
	if offline {
		// --offline leaves out a model the environment configures: say so,
		// rather than let "no LLM" read as if none were configured.
		if _, record, _, err := ResolveCastEndpoints(Models{}, a.Env.Getenv); err == nil && len(record) > 0 {
			var models []string
			for _, m := range record {
				if !slices.Contains(models, m) {
					models = append(models, m)
				}
			}
			slices.Sort(models)
			a.Env.Noticef("--offline: no LLM is used, though %s is configured", strings.Join(models, ", "))
		}
		return
	}
	a.Env.Noticef("No model configured for %s: set ANTHROPIC_API_KEY or OPENAI_API_KEY (or pass --provider and --model) to have an LLM argue", strings.Join(dataOnly, ", "))
}
