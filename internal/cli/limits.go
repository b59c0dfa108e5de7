package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/jobs"
)

func newLimitsCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "limits",
		Short: "Show or set the limits every worker respects together",
		Long: `Show the limits the workers sharing the debate database respect together, per provider: at most
N calls at once, and an optional cap of tokens per minute. They are kept in the database, so that
they hold across every 'parley worker', 'parley serve' and 'parley batch' on it, on any machine.
The SEC's fair-access limit (8 requests a second) always holds across them.`,
		Example: "  parley limits\n  parley limits set openai --concurrency 4 --tokens-per-minute 400000\n  parley limits set anthropic --concurrency 0   # no limit",
		Args:    subcommandArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// A read creates nothing: with no database yet, no limit
			// was ever set, and opening it for the limits would create
			// it (and River's tables) to say so.
			where, err := noDatabase(cmd.Context(), f)
			if err != nil {
				return err
			}
			if where != "" {
				if asJSON {
					fmt.Fprintln(f.IO.Out, "[]")
					return nil
				}
				fmt.Fprintf(f.IO.Out, "No limits: there is no Parley database at %s yet, so none was set (parley limits set PROVIDER --concurrency N creates it).\n", where)
				return nil
			}
			return withLimits(cmd.Context(), f, func(l *jobs.Limits) error {
				lims, err := l.List(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					if lims == nil {
						lims = []jobs.Limit{}
					}
					enc := json.NewEncoder(f.IO.Out)
					enc.SetIndent("", "  ")
					return enc.Encode(lims)
				}
				if len(lims) == 0 {
					fmt.Fprintln(f.IO.Out, "No limits: every provider takes as many calls as the workers make (parley limits set PROVIDER --concurrency N).")
					return nil
				}
				tw := tabwriter.NewWriter(f.IO.Out, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "PROVIDER\tCONCURRENCY\tTOKENS/MIN\tIN FLIGHT\tTOKENS LAST MINUTE")
				for _, l := range lims {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", l.Provider, orNone(l.Concurrency), orNone(l.TokensPerMinute), l.InFlight, l.LastMinute)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the limits as JSON")
	var lim jobs.Limit
	set := &cobra.Command{
		Use:   "set PROVIDER",
		Short: "Set a provider's limits for every worker (0 = none)",
		Args: func(cmd *cobra.Command, args []string) error {
			// cobra's ExactArgs says "accepts 1 arg(s)", exit 1.
			if len(args) != 1 {
				return usageErrorf("%s takes one provider, %s (got %d arguments)", cmd.CommandPath(), strings.Join(jobs.AllQueues()[1:], ", "), len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			// Provider names are lower case everywhere (--provider
			// OpenAI is openai): "OpenAI" names the same provider.
			lim.Provider = strings.ToLower(strings.TrimSpace(args[0]))
			if !slices.Contains(jobs.AllQueues()[1:], lim.Provider) {
				return usageErrorf("no provider %q: the providers are %s", args[0], strings.Join(jobs.AllQueues()[1:], ", "))
			}
			if !cmd.Flags().Changed("concurrency") && !cmd.Flags().Changed("tokens-per-minute") {
				return usageErrorf("give --concurrency N, --tokens-per-minute N, or both (0 = none)")
			}
			// Said of the flag given, before the database is opened:
			// "limits cannot be negative" named neither.
			for _, fl := range []struct {
				name string
				v    int
			}{{"concurrency", lim.Concurrency}, {"tokens-per-minute", lim.TokensPerMinute}} {
				if fl.v < 0 {
					return usageErrorf("--%s %d: give 0 (no limit) or more", fl.name, fl.v)
				}
			}
			return withLimits(cmd.Context(), f, func(l *jobs.Limits) error {
				cur, err := l.Get(cmd.Context(), lim.Provider)
				if err != nil {
					return err
				}
				if !cmd.Flags().Changed("concurrency") {
					lim.Concurrency = cur.Concurrency
				}
				if !cmd.Flags().Changed("tokens-per-minute") {
					lim.TokensPerMinute = cur.TokensPerMinute
				}
				if err := l.Set(cmd.Context(), lim); err != nil {
					return &UsageError{Err: err}
				}
				fmt.Fprintf(f.IO.ErrOut, "%s: %s calls at once, %s tokens a minute, for every worker on this database (they read it within seconds)\n",
					lim.Provider, atMost(lim.Concurrency), atMost(lim.TokensPerMinute))
				return nil
			})
		},
	}
	set.Flags().IntVar(&lim.Concurrency, "concurrency", 0, "calls at once across every worker (0 = no limit)")
	set.Flags().IntVar(&lim.TokensPerMinute, "tokens-per-minute", 0, "tokens (input and output) a minute across every worker; a call starts only while the last minute is under it (0 = no cap)")
	cmd.AddCommand(set)
	return cmd
}

// withLimits opens the database's limits.
func withLimits(ctx context.Context, f *Factory, fn func(*jobs.Limits) error) error {
	store, err := f.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	a, err := f.App(store)
	if err != nil {
		return err
	}
	q, err := jobs.New(ctx, a, jobs.Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	return fn(q.Limits())
}

func orNone(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

// atMost words a limit before what it limits: "at most 2" or, for 0,
// "no limit on" ("at most unlimited calls" was said).
func atMost(n int) string {
	if n == 0 {
		return "no limit on"
	}
	return fmt.Sprintf("at most %d", n)
}
