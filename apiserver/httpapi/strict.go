package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// duplicateFields returns the paths of the fields that appear more than
// once in one JSON object of body ("spec.color", "items[0].name"), in the
// order they repeat, as Kubernetes' strict decoding reports them.
// encoding/json keeps the last of the copies silently; fieldValidation
// Strict refuses them and Warn warns. A body that is not valid JSON gives
// nil (the decoder reports that).
func duplicateFields(body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var out []string
	if err := walkJSON(dec, "", &out); err != nil {
		return nil
	}
	return out
}

// walkJSON reads one JSON value from dec, appending to out the paths of
// repeated keys inside it.
func walkJSON(dec *json.Decoder, path string, out *[]string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := key.(string)
			if seen[k] {
				*out = append(*out, joinPath(path, k))
			}
			seen[k] = true
			if err := walkJSON(dec, joinPath(path, k), out); err != nil {
				return err
			}
		}
		_, err = dec.Token() // the closing brace
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkJSON(dec, fmt.Sprintf("%s[%d]", path, i), out); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}
