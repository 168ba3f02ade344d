package liveview

import "testing"

func TestToYAMLKeepsFieldOrderAndQuotesWhatYAMLWouldMisread(t *testing.T) {
	type item struct {
		Dish   string   `json:"dish"`
		Extras []string `json:"extras"`
	}
	v := struct {
		Kind   string            `json:"kind"`
		Status string            `json:"status"`
		Items  []item            `json:"items"`
		Empty  []int             `json:"empty"`
		Labels map[string]string `json:"labels"`
		RV     string            `json:"resourceVersion"`
		Gen    int               `json:"generation"`
		Ok     bool              `json:"ok"`
		Nil    *int              `json:"nil"`
		Grid   [][]int           `json:"grid"`
	}{"Order", "True", []item{{"pasta", []string{"black-truffle", "no: cheese"}}}, []int{}, map[string]string{}, "42", 2, true, nil, [][]int{{1, 2}}}
	want := `kind: Order
status: "True"
items:
  - dish: pasta
    extras:
      - black-truffle
      - "no: cheese"
empty: []
labels: {}
resourceVersion: "42"
generation: 2
ok: true
nil: null
grid:
  - - 1
    - 2
`
	if got := toYAML(v); got != want {
		t.Errorf("toYAML:\n%s\nwant:\n%s", got, want)
	}
}
