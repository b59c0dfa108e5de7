package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe"
)

// ResolveID turns what the user typed into a debate id: the id itself, or a
// unique prefix of one, with or without "DEB-" and in any case
// ("DEB-0324", "0324ab"). An ambiguous prefix is an error listing the
// candidates; no match says how to find the ids. Both are
// *setup.InputError.
func ResolveID(ctx context.Context, store debate.Store, typed string) (string, error) {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return "", setup.Inputf("give a debate ID ('parley list' shows them)")
	}
	if !debate.ValidID(typed) {
		// No debate has such an id (nor one starting with it): say so
		// without asking the store, quoted and cut, for it may hold
		// anything (a terminal's escapes, bytes that are not UTF-8).
		return "", setup.Inputf("no debate %q: 'parley list' shows the debates", debate.ClipID(typed))
	}
	if _, err := store.Get(ctx, typed); err == nil {
		return typed, nil
	} else if !errors.Is(err, debate.ErrNotFound) {
		return "", err
	}
	found, err := MatchIDs(ctx, store, typed)
	if err != nil {
		return "", err
	}
	switch len(found) {
	case 1:
		return found[0].ID, nil
	case 0:
		return "", setup.Inputf("no debate %s: 'parley list' shows the debates", typed)
	}
	// In columns, the topic (untrusted) made safe for the terminal.
	width := 0
	for _, s := range found[:min(len(found), 10)] {
		width = max(width, len(s.Format))
	}
	var lines []string
	for i, s := range found {
		if i == 10 {
			lines = append(lines, "  …")
			break
		}
		lines = append(lines, fmt.Sprintf("  %s  %-*s  %s", s.ID, width, s.Format, Truncate(textsafe.Clean(s.Topic), 50)))
	}
	return "", setup.Inputf("%q matches %d debates; give more of the ID:\n%s", typed, len(found), strings.Join(lines, "\n"))
}

// MatchIDs lists the debates whose id starts with what the user typed, with
// or without "DEB-" and in any case, newest first: for resolving an id and
// for completing one. What may be the start of "DEB-" itself ("D", "DEB")
// matches every id, as well as the ids whose hex digits start with it.
func MatchIDs(ctx context.Context, store debate.Store, typed string) ([]debate.Summary, error) {
	up := strings.ToUpper(strings.TrimSpace(typed))
	want := strings.ToLower(strings.TrimPrefix(up, "DEB-"))
	all, err := store.List(ctx, debate.ListFilter{})
	if err != nil {
		return nil, err
	}
	var found []debate.Summary
	for _, s := range all {
		if strings.HasPrefix(strings.ToUpper(s.ID), up) || strings.HasPrefix(strings.ToLower(strings.TrimPrefix(s.ID, "DEB-")), want) {
			found = append(found, s)
		}
	}
	return found, nil
}

// Load folds a stored debate, found by its id or a unique prefix of it, and
// finds its format.
func (a *App) Load(ctx context.Context, typed string) (*debate.State, debate.Format, error) {
	id, err := ResolveID(ctx, a.Store, typed)
	if err != nil {
		return nil, nil, err
	}
	events, err := a.Store.Load(ctx, id, 0)
	if err != nil {
		if errors.Is(err, debate.ErrNotFound) {
			return nil, nil, setup.Inputf("no debate %s: 'parley list' shows the debates", id)
		}
		return nil, nil, err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return nil, nil, err
	}
	format, err := a.Formats.Get(st.Format)
	if err != nil {
		return nil, nil, fmt.Errorf("debate %s: %w (was it made by a newer Parley?)", id, err)
	}
	return st, format, nil
}
