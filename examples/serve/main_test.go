package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServeOpensThePassAndTheAPI starts the command on a free port, reads
// the address it prints, and asks the page, a button and the Kubernetes
// API on that one address.
func TestServeOpensThePassAndTheAPI(t *testing.T) {
	url := serve(t)
	page := fetch(t, http.MethodGet, url)
	if !strings.Contains(page, "kitchensync · the pass") {
		t.Errorf("GET / does not serve the page:\n%.200s", page)
	}
	var placed map[string]string
	mustJSON(t, fetch(t, http.MethodPost, url+"actions/vip?dish=tomato-soup"), &placed)
	if placed["message"] != "placed order-001 for a VIP table" {
		t.Errorf("the VIP button answered %v", placed)
	}
	var list struct {
		Items []struct{ Metadata struct{ Name string } }
	}
	mustJSON(t, fetch(t, http.MethodGet, url+"apis/menu.example.com/v1/namespaces/dinner/orders"), &list)
	if len(list.Items) != 1 || list.Items[0].Metadata.Name != "order-001" {
		t.Errorf("the API lists %+v, want order-001", list.Items)
	}
}

func fetch(t *testing.T, method, url string) string {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %v %s", method, url, res.StatusCode, err, b)
	}
	return string(b)
}

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%v in %.200s", err, s)
	}
}
