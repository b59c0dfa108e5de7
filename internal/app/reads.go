package app

import (
	"maps"
	"slices"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// DocumentOptions are the front-ends' options of the documents a debate
// writes (Documents): a format that writes none refuses them.
var DocumentOptions = []string{"out-dir", "issue-draft"}

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
	for _, name := range DocumentOptions {
		d := setup.Declared{Option: setup.Option{Name: name}}
		for _, n := range a.Formats.Names() {
			if f, err := a.Formats.Get(n); err == nil && WritesDocuments(f) {
				d.Formats = append(d.Formats, n)
			}
		}
		union = append(union, d)
	}
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
