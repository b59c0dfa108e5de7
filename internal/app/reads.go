package app

import (
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// checkReads refuses an option given for a format that does not read it
// (setup.OptionReader): run without it, the debate would not be the one
// asked for (--agents saylor,hayes on a question, which goes to
// perspectives unless --format crux says otherwise).
func (a *App) checkReads(format debate.Format, req *setup.Request) error {
	r, ok := format.(setup.OptionReader)
	if !ok || req.Given == nil {
		return nil
	}
	reads := r.Reads()
	for _, name := range setup.FormatOptions {
		if !req.Set(name) || slices.Contains(reads, name) || slices.Contains(req.FromConfig, name) {
			continue
		}
		var by []string
		for _, n := range a.Formats.Names() {
			f, err := a.Formats.Get(n)
			if err != nil {
				continue
			}
			if o, ok := f.(setup.OptionReader); ok && slices.Contains(o.Reads(), name) {
				by = append(by, n)
			}
		}
		takes := "no format takes it"
		if len(by) > 0 {
			takes = strings.Join(by, " and ") + " take"
			if len(by) == 1 {
				takes += "s"
			}
			takes += " it"
		}
		if !req.Set("format") {
			return setup.Inputf("--%s: with no --format this debate is %s, which has no --%s (%s): choose the format with --format, or drop --%s",
				name, format.Name(), name, takes, name)
		}
		return setup.Inputf("--%s: the %s format has no --%s (%s): drop it, or choose another --format", name, format.Name(), name, takes)
	}
	return nil
}
