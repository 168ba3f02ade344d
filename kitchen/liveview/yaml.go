package liveview

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// toYAML writes v as YAML, the way kubectl get -o yaml shows an object:
// fields in their JSON order, block style. It covers what JSON can say
// (objects, arrays, strings, numbers, booleans, null), which is all an
// API object is; it is a display, not a general YAML encoder.
func toYAML(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "# " + err.Error() + "\n"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out strings.Builder
	if err := writeYAML(&out, dec, 0, ""); err != nil {
		return "# " + err.Error() + "\n"
	}
	return out.String()
}

// writeYAML writes the next JSON value of dec at indent. after says what
// precedes it on its line: "" (nothing), "key" ("name:") or "item" ("- ").
func writeYAML(out *strings.Builder, dec *json.Decoder, indent int, after string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	sep := ""
	if after == "key" {
		sep = " "
	}
	t, ok := tok.(json.Delim)
	if !ok {
		out.WriteString(sep + scalar(tok) + "\n")
		return nil
	}
	if !dec.More() { // {} or []
		_, err := dec.Token()
		out.WriteString(sep + map[json.Delim]string{'{': "{}", '[': "[]"}[t] + "\n")
		return err
	}
	if after == "key" {
		out.WriteString("\n")
	}
	for first := true; dec.More(); first = false {
		lead := strings.Repeat("  ", indent)
		if first && after == "item" {
			lead = "" // the first line goes after the "- "
		}
		next := "item"
		if t == '{' {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			out.WriteString(lead + yamlString(k.(string)) + ":")
			next = "key"
		} else {
			out.WriteString(lead + "- ")
		}
		if err := writeYAML(out, dec, indent+1, next); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}

// scalar writes a JSON string, number, boolean or null.
func scalar(tok json.Token) string {
	switch t := tok.(type) {
	case string:
		return yamlString(t)
	case json.Number:
		return t.String()
	case bool:
		return strconv.FormatBool(t)
	}
	return "null"
}

// yamlString quotes s when YAML would read it as something else.
func yamlString(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~":
		return strconv.Quote(s)
	}
	if s == "" || strings.ContainsAny(s, ":#{}[]&*!|>'\"%@`,\n") || strings.TrimSpace(s) != s || s[0] == '-' {
		return strconv.Quote(s)
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.Quote(s)
	}
	return s
}
