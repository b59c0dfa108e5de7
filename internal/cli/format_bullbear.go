package cli

import "github.com/parleyhq/parley/internal/format/bullbear"

// impliesBullbear reports whether a debate started without --format is a
// bull vs. bear debate: its topic is a ticker, or it uses the flags only that
// format reads.
func impliesBullbear(o *DebateOptions) bool {
	return o.Resume == "" && bullbear.Implied(&o.Request)
}
