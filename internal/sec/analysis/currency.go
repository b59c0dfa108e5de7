package analysis

import (
	"fmt"
	"math"
	"strings"
)

// currencySymbols are the signs amounts are written with in the currencies
// filers most often report in. A currency not listed is written with its
// ISO code ("DKK 290.0B"), which is unambiguous; the yen sign is kept for
// the yen alone (the yuan is written "CNY"), and the Taiwan dollar is
// "NT$", as its filers write it.
var currencySymbols = map[string]string{
	"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "TWD": "NT$", "KRW": "₩", "INR": "₹",
	"CAD": "C$", "AUD": "A$", "HKD": "HK$", "SGD": "S$", "BRL": "R$", "MXN": "MX$", "NZD": "NZ$",
}

// CurrencyPrefix is what an amount in currency (an ISO 4217 code, as
// xbrl.CompanyFacts.Currency gives it) is written after: "$" for dollars
// (and for no currency named, the filings' default), "€" for euros, the
// code and a space for a currency without a sign of its own ("DKK ").
func CurrencyPrefix(currency string) string {
	currency = strings.ToUpper(strings.TrimSpace(currency))
	if currency == "" {
		return "$"
	}
	if s, ok := currencySymbols[currency]; ok {
		return s
	}
	return currency + " "
}

// Currency is the currency of a unit: "EUR" for "EUR" and "EUR/shares",
// "" for a unit that is no amount ("shares", "pure", "ratio").
func Currency(unit string) string {
	code, _, _ := strings.Cut(unit, "/")
	if len(code) != 3 || strings.ToUpper(code) != code {
		return ""
	}
	for _, r := range code {
		if r < 'A' || r > 'Z' {
			return ""
		}
	}
	return code
}

// FormatMoney writes an amount in currency as the analysis writes dollars:
// "$1.2B", "€27.6B", "NT$2894.3B", "-DKK 12.0M".
func FormatMoney(v float64, currency string) string {
	a := math.Abs(v)
	sign := ""
	if v < 0 {
		sign = "-"
	}
	p := CurrencyPrefix(currency)
	switch {
	case a >= 1e9:
		return fmt.Sprintf("%s%s%.1fB", sign, p, a/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%s%s%.1fM", sign, p, a/1e6)
	}
	return fmt.Sprintf("%s%s%.0f", sign, p, a)
}
