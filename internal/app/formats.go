package app

import (
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/format/crux"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/format/perspectives"
)

// DefaultFormats is the registry of every format Parley ships. A format is
// a package whose Format implements debate.Format and setup.Starter, and a
// line here.
func DefaultFormats() *debate.Formats {
	return debate.NewFormats(perspectives.Format{},
		council.Format{},
		crux.Format{},
		bullbear.Format{},
		formal.Format{},
	)
}
