package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/parleyhq/parley/internal/app"
	"github.com/spf13/cobra"
)

// ExportOptions are the `parley export` flags.
type ExportOptions struct {
	ID      string
	As      string
	Full    bool
	Summary bool
	Output  string
	Force   bool // replace the -o file if it exists
	asSet   bool // --as was given
}

func newExportCmd(f *Factory, run func(context.Context, *ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{}
	cmd := &cobra.Command{
		Use:   "export ID",
		Short: "Export a debate as Markdown, JSON or PDF",
		Long: `Export a debate rendered from its event log.

--full (the default) includes the transcript; --summary only the result.
--as pdf writes a PDF document; give -o FILE (it goes to standard output only
when that is not a terminal). -o does not replace a file that exists unless
--force is given; the directories on its path that are missing are created.`,
		Example: "  parley export DEB-1a2b3c4d\n  parley export DEB-1a2b3c4d --as json -o debate.json\n  parley export DEB-1a2b3c4d --summary -o decision.md\n  parley export DEB-1a2b3c4d --as pdf -o debate.pdf",
		Args:    exactID,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			opts.asSet = cmd.Flags().Changed("as")
			// Checked here rather than with cobra's flag groups, whose
			// error is not bad input (exit 1) and reads "if any flags in
			// the group [full summary] are set none of the others can be".
			if opts.Full && opts.Summary {
				return usageErrorf("--full and --summary exclude each other: --full (the default) includes the transcript, --summary only the result")
			}
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runExport(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.As, "as", "md", "output `format`: md, json or pdf (default: from the -o file name, else md)")
	cmd.Flags().Lookup("as").DefValue = "" // the usage says it, and "md" is not always it
	cmd.Flags().BoolVar(&opts.Full, "full", false, "include the whole transcript (default)")
	cmd.Flags().BoolVar(&opts.Summary, "summary", false, "only the result")
	nonBlankVarP(cmd.Flags(), &opts.Output, "output", "o", "write to `file` instead of standard output (a directory: the debate's ID.md, ID.json or ID.pdf in it)")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "replace the -o file if it exists")
	return cmd
}

// formatOfFile is the export format a file name asks for, "" if none.
func formatOfFile(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pdf":
		return "pdf"
	case ".json":
		return "json"
	case ".md", ".markdown":
		return "md"
	}
	return ""
}

func runExport(ctx context.Context, f *Factory, o *ExportOptions) error {
	// The format names are matched as the file extensions are, whatever
	// their case: --as PDF is pdf, as -o x.PDF is.
	o.As = strings.ToLower(strings.TrimSpace(o.As))
	// "-o -" is standard output, as for most tools: it wrote a file
	// named "-" in the current directory.
	if o.Output == "-" {
		o.Output = ""
	}
	// -o naming a directory means the debate's file in it (ID.md, ID.json,
	// ID.pdf), as the shell's /export reads it; a rename over the directory
	// would fail with "file exists". Its name says nothing of the format.
	intoDir := app.NamesDir(o.Output)
	if want := formatOfFile(o.Output); want != "" && !intoDir {
		switch {
		case !o.asSet:
			o.As = want
		case want != o.As:
			return usageErrorf("--as %s, but -o %s names a %s file: drop --as to write %s, or name the file .%s", o.As, o.Output, want, want, o.As)
		}
	} else if ext := filepath.Ext(o.Output); ext != "" && !intoDir && !o.asSet {
		// -o report.docx wrote Markdown into a file its name says is a Word
		// document; the shell's /export refuses it too.
		return usageErrorf("-o %s: Parley exports md, json or pdf, not %s: name the file .md, .json or .pdf, or say which with --as", o.Output, strings.TrimPrefix(ext, "."))
	}
	switch o.As {
	case "md", "json":
	case "pdf":
		if o.Output == "" && f.IO.IsTerminal() {
			return usageErrorf("--as pdf writes a binary file: give -o FILE (for example -o %s.pdf), or redirect standard output", o.ID)
		}
	default:
		return usageErrorf("--as %q: choose md, json or pdf", o.As)
	}
	if o.Output != "" {
		// Said before the debate is read and rendered, as a bad -o, not
		// as mkdir's "not a directory" after it.
		dir := filepath.Dir(o.Output)
		if intoDir {
			dir = o.Output
		}
		if p := app.FileInPath(dir); p != "" {
			return usageErrorf("-o %s: %s is a file, not a directory: give a path in a directory, or a directory for the debate's file", o.Output, p)
		}
	}
	store, ok, err := f.OpenStoreReadOnly(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return usageErrorf("no debate %s: no debate has been run yet ('parley list' shows the debates)", o.ID)
	}
	defer store.Close()
	st, format, err := loadDebate(ctx, f, store, o.ID)
	if err != nil {
		return err
	}
	a, err := f.App(store)
	if err != nil {
		return err
	}
	out, err := app.Export(format, a.AsShown(ctx, st), o.As, o.Summary)
	if err != nil {
		return err
	}
	if o.Output == "" {
		_, err := f.IO.Out.Write(out)
		return err
	}
	path := o.Output
	if intoDir {
		path = filepath.Join(o.Output, st.ID+"."+o.As)
	}
	if err := app.WriteExport(path, out, o.Force); errors.Is(err, app.ErrFileExists) {
		return usageErrorf("%s exists: give --force to replace it, or another -o", path)
	} else if errors.Is(err, syscall.ENAMETOOLONG) {
		// A path the user gave that no file system takes is bad input,
		// worded as such; the system's "file name too long" on a
		// temporary name ended with exit 1.
		return usageErrorf("-o %s: the name is longer than the file system takes (most take 255 bytes a name): give a shorter one", path)
	} else if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(f.IO.ErrOut, "Wrote %s\n", path)
	return nil
}
