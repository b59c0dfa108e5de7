package debate

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxIDLen bounds a debate's id: ids are "DEB-" and 8 hex digits, and no
// store keeps a longer one.
const MaxIDLen = 128

// ErrInvalidID is a Store's answer to the creation of a debate whose id is
// not one a debate can have (see ValidID).
var ErrInvalidID = errors.New("not a debate id (a debate's id is UTF-8 text of at most 128 bytes without control characters)")

// ValidID reports whether id is one a debate can have: not empty, UTF-8, no
// control character (NUL among them), at most MaxIDLen bytes. Every store
// can keep such an id; PostgreSQL refuses the others in text ("invalid byte
// sequence for encoding UTF8"), so the Store contract makes them unknown
// on every store alike, and front-ends may answer "no such debate" without
// asking the store.
func ValidID(id string) bool {
	return id != "" && len(id) <= MaxIDLen && utf8.ValidString(id) && !strings.ContainsFunc(id, unicode.IsControl)
}

// NoSuchID is ErrNotFound for an id that is not ValidID, op naming what was
// asked ("load debate"): the id is quoted (escaped) and cut, for it may be
// anything a user or a client sent.
func NoSuchID(op, id string) error {
	return fmt.Errorf("%s %q: %w", op, ClipID(id), ErrNotFound)
}

// ClipID cuts an id for a message to at most MaxIDLen bytes and an
// ellipsis, at a rune boundary when it is UTF-8.
func ClipID(id string) string {
	if len(id) <= MaxIDLen {
		return id
	}
	cut := MaxIDLen
	for cut > MaxIDLen-utf8.UTFMax && !utf8.RuneStart(id[cut]) {
		cut--
	}
	return id[:cut] + "…"
}
