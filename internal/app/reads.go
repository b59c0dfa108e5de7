package app

import (
	"maps"
	"slices"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// checkReads refuses an option given for a format that does not declare it
// (setup.Optioner): run without it, the debate would not be the one asked
// for (--agents saylor,hayes on a question, which goes to perspectives
// unless --format crux says otherwise).
//
// A value of another kind than its option's is a front-end's mistake, an
// error too.
func (a *App) checkReads(format debate.Format, req *setup.Request) error {
	union, err := setup.Union(a.Formats)
	if err != nil {
		return err
	}
	if err := req.CheckValues(union); err != nil {
		return err
	}
	if req.Given == nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(req.Values)) {
		if !slices.ContainsFunc(union, func(d setup.Declared) bool { return d.Name == name }) {
			union = append(union, setup.Declared{Option: setup.Option{Name: name}})
		}
	}
	union = append(union, documentOptions(a.Formats)...)
	for _, d := range union {
		if !req.Set(d.Name) || slices.Contains(d.Formats, format.Name()) || slices.Contains(req.FromConfig, d.Name) {
			continue
		}
		takes := "no format takes it"
		if len(d.Formats) > 0 {
			takes = d.Takes()
		}
		if !req.Set("format") {
			return setup.Inputf("--%s: with no --format this debate is %s, which has no --%s (%s): choose the format with --format, or drop --%s",
				d.Name, format.Name(), d.Name, takes, d.Name)
		}
		return setup.Inputf("--%s: the %s format has no --%s (%s): drop it, or choose another --format", d.Name, format.Name(), d.Name, takes)
	}
	return nil
}

// documentOptions are the front-ends' options of the documents a debate
// writes (Documents: --out-dir, and --KIND for a document written when
// asked for), each with the formats that take it: a format that writes no
// documents (debate.DocumentWriter) refuses them.
func documentOptions(formats *debate.Formats) []setup.Declared {
	dir := setup.Declared{Option: setup.Option{Name: "out-dir"}}
	for _, n := range formats.Names() {
		if f, err := formats.Get(n); err == nil {
			if _, ok := f.(debate.DocumentWriter); ok {
				dir.Formats = append(dir.Formats, n)
			}
		}
	}
	out := []setup.Declared{dir}
	for _, d := range AskedDocuments(formats) {
		out = append(out, setup.Declared{Option: setup.Option{Name: d.Kind}, Formats: d.Formats})
	}
	return out
}
