package sqlite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// DefaultPath returns where Parley keeps its database unless told otherwise
// (--db), in the user's data directory:
//
//   - Linux and other Unix: $XDG_DATA_HOME/parley/parley.db, or
//     ~/.local/share/parley/parley.db when XDG_DATA_HOME is unset or not
//     absolute (as the XDG Base Directory specification says to treat it);
//   - macOS: ~/Library/Application Support/parley/parley.db;
//   - Windows: %LocalAppData%\parley\parley.db.
//
// os.UserConfigDir is not used: on Linux it points to ~/.config, and a
// database is data, not configuration.
func DefaultPath() (string, error) {
	return defaultPath(runtime.GOOS, os.Getenv, os.UserHomeDir)
}

func defaultPath(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	const app, file = "parley", "parley.db"
	switch goos {
	case "windows":
		dir := getenv("LocalAppData")
		if dir == "" {
			return "", errors.New("locate the parley database: %LocalAppData% is not set (set it, or pass --db)")
		}
		return filepath.Join(dir, app, file), nil
	case "darwin", "ios":
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("locate the parley database: %w (pass --db)", err)
		}
		return filepath.Join(h, "Library", "Application Support", app, file), nil
	default:
		if dir := getenv("XDG_DATA_HOME"); filepath.IsAbs(dir) {
			return filepath.Join(dir, app, file), nil
		}
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("locate the parley database: %w (set XDG_DATA_HOME or pass --db)", err)
		}
		return filepath.Join(h, ".local", "share", app, file), nil
	}
}
