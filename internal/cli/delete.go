package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/textsafe"
)

// DeleteOptions are the `parley delete` arguments.
type DeleteOptions struct {
	ID  string
	Yes bool
}

func newDeleteCmd(f *Factory, run func(context.Context, *DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{}
	cmd := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a debate and its log (asks first)",
		Long: `Delete a debate: its event log, its summary and its lease. Documents it wrote (decision
documents, exports) stay where they are. A debate that is running cannot be deleted.`,
		Example: "  parley delete DEB-1a2b3c4d\n  parley delete 1a2b --yes",
		Args:    exactID,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runDelete(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

func runDelete(ctx context.Context, f *Factory, o *DeleteOptions) error {
	store, err := f.OpenStoreFor(ctx, o.ID)
	if err != nil {
		return err
	}
	defer store.Close()
	id, err := resolveID(ctx, store, o.ID)
	if err != nil {
		return err
	}
	sum, err := store.Get(ctx, id)
	if err != nil {
		return err
	}
	// Refused before asking, so nobody confirms a delete that app.Delete
	// then refuses; it checks again, which is what decides.
	if l := sum.LiveLease(f.Now(), debate.OwnerAlive); l != nil {
		return &debate.LeaseHeldError{Debate: id, Lease: *l}
	}
	what := fmt.Sprintf("%s (%s, %s: %s)", id, sum.Format, sum.Shown(f.Now(), debate.OwnerAlive), app.Truncate(textsafe.Clean(sum.Topic), 60))
	if !o.Yes {
		if !f.IO.IsInputTerminal() {
			return usageErrorf("delete %s: confirm with --yes (no terminal to ask on)", what)
		}
		fmt.Fprintf(f.IO.ErrOut, "Delete debate %s? Its log cannot be recovered. [y/N] ", what)
		line, _ := bufio.NewReader(f.IO.In).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(f.IO.ErrOut, "Nothing deleted.")
			return nil
		}
	}
	a, err := f.App(store)
	if err != nil {
		return err
	}
	if _, err := a.Delete(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(f.IO.ErrOut, "Deleted debate %s.\n", what)
	return nil
}
