package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
)

// resolveID turns what the user typed into a debate id: the id itself, or a
// unique prefix of one, with or without "DEB-" and in any case
// ("DEB-0324", "0324ab"). An ambiguous prefix is an error listing the
// candidates; no match says how to find the ids.
func resolveID(ctx context.Context, store debate.Store, typed string) (string, error) {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return "", usageErrorf("give a debate ID ('parley list' shows them)")
	}
	if _, err := store.Get(ctx, typed); err == nil {
		return typed, nil
	} else if !errors.Is(err, debate.ErrNotFound) {
		return "", err
	}
	want := strings.ToLower(strings.TrimPrefix(strings.ToUpper(typed), "DEB-"))
	all, err := store.List(ctx, debate.ListFilter{})
	if err != nil {
		return "", err
	}
	var found []debate.Summary
	for _, s := range all {
		if strings.HasPrefix(strings.ToLower(strings.TrimPrefix(s.ID, "DEB-")), want) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 1:
		return found[0].ID, nil
	case 0:
		return "", usageErrorf("no debate %s: 'parley list' shows the debates", typed)
	}
	var lines []string
	for i, s := range found {
		if i == 10 {
			lines = append(lines, "  …")
			break
		}
		lines = append(lines, "  "+s.ID+"  "+s.Format+"  "+app.Truncate(s.Topic, 50))
	}
	return "", usageErrorf("%q matches %d debates; give more of the ID:\n%s", typed, len(found), strings.Join(lines, "\n"))
}
