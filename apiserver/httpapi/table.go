package httpapi

import (
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// representation is the form a response body takes.
type representation int

const (
	asObject   representation = iota // the objects themselves
	asTable                          // a meta.k8s.io/v1 Table, for kubectl get
	asProtobuf                       // the objects in Kubernetes' protobuf envelope
)

// negotiate reads the Accept header, in order of the client's preference:
// "application/json;as=Table;v=v1;g=meta.k8s.io" (what kubectl get sends
// first) asks for a Table; plain JSON or a wildcard asks for the objects.
// A header that asks only for forms the server cannot make is 406.
func negotiate(r *http.Request) (representation, error) {
	accept := r.Header.Get("Accept")
	if strings.TrimSpace(accept) == "" {
		return asObject, nil
	}
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if mt != "application/json" && mt != "application/*" && mt != "*/*" {
			continue
		}
		switch {
		case params["as"] == "":
			return asObject, nil
		case params["as"] == "Table" && params["g"] == "meta.k8s.io" && params["v"] == "v1":
			return asTable, nil
		}
	}
	return asObject, newStatusError(http.StatusNotAcceptable, reasonNotAcceptable, fmt.Sprintf(
		"only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io (asked for %q)", accept))
}

// The wire shapes of Kubernetes' meta.k8s.io/v1 Table: what kubectl get
// prints, so that the server decides the columns, not kubectl.
type (
	table struct {
		Kind              string                  `json:"kind"`
		APIVersion        string                  `json:"apiVersion"`
		Metadata          meta.ListMeta           `json:"metadata"`
		ColumnDefinitions []tableColumnDefinition `json:"columnDefinitions"`
		Rows              []tableRow              `json:"rows"`
	}
	tableColumnDefinition struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Format      string `json:"format"`
		Description string `json:"description"`
		Priority    int32  `json:"priority"`
	}
	tableRow struct {
		Cells  []any                 `json:"cells"`
		Object partialObjectMetadata `json:"object"`
	}
	// partialObjectMetadata is the object of a row: just its metadata,
	// which kubectl reads for the NAMESPACE column and for labels.
	partialObjectMetadata struct {
		Kind       string          `json:"kind"`
		APIVersion string          `json:"apiVersion"`
		Metadata   meta.ObjectMeta `json:"metadata"`
	}
)

// columns returns the table columns of a kind: Name, then one column per
// extra field selector the kind registers (so kubectl get shows what
// --field-selector can match, like a CRD's additionalPrinterColumns), then
// Age.
func columns(info meta.KindInfo) []tableColumnDefinition {
	cols := []tableColumnDefinition{{
		Name: "Name", Type: "string", Format: "name",
		Description: "Name must be unique within a namespace.",
	}}
	for _, field := range fieldNames(info) {
		cols = append(cols, tableColumnDefinition{
			Name: columnName(field), Type: "string",
			Description: fmt.Sprintf("The field %s (field selector %s=...).", field, field),
		})
	}
	return append(cols, tableColumnDefinition{
		Name: "Age", Type: "date",
		Description: "How long ago the object was created (metadata.creationTimestamp).",
	})
}

// fieldNames returns the kind's own field selectors, sorted: those
// beyond metadata.name and metadata.namespace, which every kind has.
func fieldNames(info meta.KindInfo) []string {
	return slices.DeleteFunc(info.SupportedFields(), func(name string) bool {
		return name == meta.FieldMetadataName || name == meta.FieldMetadataNamespace
	})
}

// columnName makes a header from a field path: "spec.section" is
// "Section" (kubectl prints headers in capitals).
func columnName(field string) string {
	last := field[strings.LastIndexByte(field, '.')+1:]
	if last == "" {
		return field
	}
	return strings.ToUpper(last[:1]) + last[1:]
}

// table converts objects of one kind into a Table with a row each. The
// built-in Event has kube-apiserver's own columns (see eventColumns);
// every other kind the generic ones of columns.
func (h *Handler) table(info meta.KindInfo, om meta.ListMeta, objs ...meta.Object) *table {
	cols, event := columns(info), isEvent(info)
	if event {
		cols = eventColumns
	}
	t := &table{
		Kind: "Table", APIVersion: "meta.k8s.io/v1", Metadata: om,
		ColumnDefinitions: cols, Rows: []tableRow{},
	}
	now := h.now()
	for _, obj := range objs {
		m := obj.GetObjectMeta()
		var cells []any
		if e, ok := obj.(*builtin.Event); ok && event {
			cells = eventCells(e, now)
		} else {
			cells = genericCells(info, obj, now)
		}
		t.Rows = append(t.Rows, tableRow{Cells: cells, Object: partialObjectMetadata{
			Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1", Metadata: m.DeepCopy(),
		}})
	}
	return t
}

// genericCells is obj's row under the columns of columns: name, the
// kind's field selectors, age.
func genericCells(info meta.KindInfo, obj meta.Object, now time.Time) []any {
	m := obj.GetObjectMeta()
	cells := []any{m.Name}
	for _, field := range fieldNames(info) {
		cells = append(cells, info.Fields[field](obj))
	}
	return append(cells, age(m.CreationTimestamp, now))
}

// age words how long ago created was, as kubectl's AGE column does:
// "42s", "3m10s", "25m", "5h", "3d4h", "<unknown>" for a zero time.
func age(created meta.Time, now time.Time) string {
	if created.IsZero() {
		return "<unknown>"
	}
	return humanDuration(now.Sub(created.Time))
}

// humanDuration prints d with two units at most, coarser as it grows, the
// way Kubernetes' duration.HumanDuration does.
func humanDuration(d time.Duration) string {
	secs := int64(d / time.Second)
	mins, hours := int64(d/time.Minute), int64(d/time.Hour)
	days := hours / 24
	two := func(big int64, bigUnit string, small int64, smallUnit string) string {
		if small == 0 {
			return fmt.Sprint(big, bigUnit)
		}
		return fmt.Sprint(big, bigUnit, small, smallUnit)
	}
	switch {
	case secs < -1:
		return "<invalid>"
	case secs < 0:
		return "0s"
	case secs < 120:
		return fmt.Sprint(secs, "s")
	case mins < 10:
		return two(mins, "m", secs%60, "s")
	case mins < 180:
		return fmt.Sprint(mins, "m")
	case hours < 8:
		return two(hours, "h", mins%60, "m")
	case hours < 48:
		return fmt.Sprint(hours, "h")
	case hours < 24*8:
		return two(days, "d", hours%24, "h")
	case hours < 24*365*2:
		return fmt.Sprint(days, "d")
	case hours < 24*365*8:
		return two(days/365, "y", days%365, "d")
	}
	return fmt.Sprint(days/365, "y")
}
