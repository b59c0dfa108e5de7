package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/parleyhq/parley/internal/llm/pricing"
)

// pricesEnv names a prices file that replaces the config file's prices_file
// and ranks above its prices: block, as the environment ranks above the file.
const pricesEnv = "PARLEY_PRICES_FILE"

// priceTable is the built-in price table with the user's overrides, lowest
// first: the config file's prices_file, then its prices: block, then the
// file PARLEY_PRICES_FILE names (which takes prices_file's place). A model
// gets the price of the highest source that names it. It also returns the
// settings for `parley config`: the file read, and each model priced with
// the source of its price. A bad file or price is a usage error naming it
// and saying how to fix it.
func priceTable(c *Config, env func(string) string) (pricing.Table, []setting, error) {
	table := pricing.Default()
	src := "config file " + c.path
	type layer struct {
		prices map[string]pricing.Price
		source string
	}
	var (
		layers []layer
		out    []setting
	)
	fromFile := func(path, source, fix string) error {
		prices, err := pricing.ReadFile(path)
		if err != nil {
			return &UsageError{Err: fmt.Errorf("%s: prices file %s: %w; %s", source, path, err, fix)}
		}
		layers = append(layers, layer{prices, source + " (" + path + ")"})
		n := fmt.Sprintf("%d models", len(prices))
		if len(prices) == 1 {
			n = "1 model"
		}
		out = append(out, setting{"prices_file", path + " (" + n + ")", source})
		return nil
	}
	envFile := env(pricesEnv)
	if c.PricesFile != "" && envFile == "" {
		path := c.PricesFile
		if !filepath.IsAbs(path) {
			// Relative to the config file, not to wherever parley runs.
			path = filepath.Join(filepath.Dir(c.path), path)
		}
		if err := fromFile(path, src, "fix it, or the prices_file setting"); err != nil {
			return table, nil, err
		}
	}
	if !c.Prices.IsZero() {
		data, err := yaml.Marshal(&c.Prices)
		if err != nil {
			return table, nil, &UsageError{Err: fmt.Errorf("%s: prices: %w", c.path, err)}
		}
		prices, err := pricing.Decode(data)
		if err != nil {
			return table, nil, &UsageError{Err: fmt.Errorf("config file %s: prices: %w", c.path, err)}
		}
		if len(prices) > 0 {
			layers = append(layers, layer{prices, src})
		}
	}
	if envFile != "" {
		if err := fromFile(envFile, "environment "+pricesEnv, "fix it, or unset "+pricesEnv); err != nil {
			return table, nil, err
		}
	}
	if len(layers) == 0 {
		return table, []setting{{"prices", "(built-in list prices)", "default"}}, nil
	}
	// Each model once, with the price and source that win.
	won := map[string]int{} // lower-cased model → index in models
	var models []setting
	for _, l := range layers {
		table = table.With(l.prices)
		names := make([]string, 0, len(l.prices))
		for m := range l.prices {
			names = append(names, m)
		}
		slices.Sort(names)
		for _, m := range names {
			s := setting{"prices." + m, l.prices[m].String(), l.source}
			if i, ok := won[strings.ToLower(strings.TrimSpace(m))]; ok {
				models[i] = s
				continue
			}
			won[strings.ToLower(strings.TrimSpace(m))] = len(models)
			models = append(models, s)
		}
	}
	return table, append(out, models...), nil
}
