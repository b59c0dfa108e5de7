package app

import (
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/format/crux"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/setup"
)

// DefaultFormats is the registry of every format Parley ships. A format is
// a package whose Format implements debate.Format and setup.Starter, and a
// line here.
func DefaultFormats() *debate.Formats { return DefaultFormatsWith() }

// DefaultFormatsWith is the registry of the formats Parley ships and extra
// ones, registered before them: a program (or a test) that adds a format
// of its own.
func DefaultFormatsWith(extra ...debate.Format) *debate.Formats {
	return debate.NewFormats(append(extra,
		perspectives.Format{},
		council.Format{},
		crux.Format{},
		bullbear.Format{},
		formal.Format{},
	)...)
}

// DefaultFormat is the format of a debate whose request names none and
// that no registered format claims (FormatFor).
const DefaultFormat = perspectives.Name

// FormatFor is the format of a debate whose requests name none: the format
// that each of them implies alike (setup.Implier: bullbear for a ticker or
// --deep), else DefaultFormat. A request asks the registered formats in
// the order of their names and is the first's that claims it. One request
// is a debate's (parley debate, the shell's /debate, the API); a batch
// gives one an item, and runs one format for all of them. Every front-end
// infers the format by this rule, so none names a format to do it.
func FormatFor(fs *debate.Formats, reqs ...*setup.Request) string {
	format := ""
	for i, r := range reqs {
		f := implied(fs, r)
		if f == "" || (i > 0 && f != format) {
			return DefaultFormat
		}
		format = f
	}
	if format == "" {
		return DefaultFormat
	}
	return format
}

// implied is the first registered format, by name, that claims r; "" when
// none does.
func implied(fs *debate.Formats, r *setup.Request) string {
	for _, name := range fs.Names() {
		f, err := fs.Get(name)
		if err != nil {
			continue // listed by Names: not reached
		}
		if im, ok := f.(setup.Implier); ok && im.Implied(r) {
			return name
		}
	}
	return ""
}
