// Command parley runs structured adversarial debates between LLM agents.
package main

import (
	"context"
	"os"

	"github.com/parleyhq/parley/internal/cli"
	"github.com/parleyhq/parley/internal/iostreams"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], iostreams.System()))
}
