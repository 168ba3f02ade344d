package httpapi

import (
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// representation is the form a response body takes.
type representation int

const (
	asObject              representation = iota // the objects themselves
	asTable                                     // a meta.k8s.io/v1 Table, for kubectl get
	asProtobuf                                  // the objects in Kubernetes' protobuf envelope
	asPartial                                   // each object's metadata: a PartialObjectMetadata (partial.go)
	asPartialList                               // a list's: a PartialObjectMetadataList
	asPartialProtobuf                           // asPartial in protobuf
	asPartialListProtobuf                       // asPartialList in protobuf
)

// negotiateObject reads the Accept header of a request on the kind, in
// the client's order of preference, and picks the first form it can
// make, as kube-apiserver does:
//
//   - plain JSON (or a wildcard): the objects;
//   - protobuf ("application/vnd.kubernetes.protobuf", which client-go's
//     typed clients put first): the objects in the envelope, for a kind
//     that has a protobuf form (else the next entry counts);
//   - JSON with as=Table;g=meta.k8s.io;v=v1 (what kubectl get asks for
//     first): a Table;
//   - JSON or protobuf with as=PartialObjectMetadata or
//     as=PartialObjectMetadataList (g=meta.k8s.io;v=v1), for any kind:
//     metadata only (see partial.go).
//
// A header that asks only for forms the server cannot make is 406.
func negotiateObject(r *http.Request, info meta.KindInfo) (representation, error) {
	accept := r.Header.Get("Accept")
	if strings.TrimSpace(accept) == "" {
		return asObject, nil
	}
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		proto := mt == protobufMediaType
		if err != nil || !proto && mt != "application/json" && mt != "application/*" && mt != "*/*" {
			continue
		}
		as, metaV1 := params["as"], params["g"] == "meta.k8s.io" && params["v"] == "v1"
		switch {
		case as == "" && !proto:
			return asObject, nil
		case as == "" && speaksProtobuf(info) && (len(params) == 0 || len(params) == 1 && params["stream"] == "watch"):
			return asProtobuf, nil
		case as == "Table" && metaV1 && !proto:
			return asTable, checkIncludeObject(r)
		case metaV1 && partialFormFor(as, proto) != asObject:
			return partialFormFor(as, proto), nil
		}
	}
	return asObject, newStatusError(http.StatusNotAcceptable, reasonNotAcceptable, fmt.Sprintf(
		"only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io (asked for %q)", accept))
}

// negotiateOne is negotiateObject for a request that answers one object:
// the list form is 406.
func negotiateOne(r *http.Request, info meta.KindInfo) (representation, error) {
	as, err := negotiateObject(r, info)
	if err == nil && isPartialList(as) {
		return as, errNotAList(info)
	}
	return as, err
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
		Cells  []any `json:"cells"`
		Object any   `json:"object"`
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

// table converts objects of one kind into a Table with a row each, each
// row's object what row makes of it ([target.rowObject]). The built-in
// Event, Lease and Namespace have kube-apiserver's own columns (see
// [printerFor]), a kind with printer columns those; every other kind the
// generic ones of columns.
func (h *Handler) table(info meta.KindInfo, om meta.ListMeta, row func(meta.Object) any, objs ...meta.Object) *table {
	p, builtin := printerFor(info)
	switch {
	case builtin:
	case hasPrinterColumns(info):
		cols, pc := printerColumns(info)
		p = printer{cols, func(obj meta.Object, now time.Time) []any { return printerCells(pc, obj, now) }}
	default:
		p = printer{columns(info), func(obj meta.Object, now time.Time) []any { return genericCells(info, obj, now) }}
	}
	t := &table{
		Kind: "Table", APIVersion: "meta.k8s.io/v1", Metadata: om,
		ColumnDefinitions: p.columns, Rows: []tableRow{},
	}
	now := h.now()
	for _, obj := range objs {
		t.Rows = append(t.Rows, tableRow{Cells: p.cells(obj, now), Object: row(obj)})
	}
	return t
}

// rowObject is what a Table row of t's request carries, as its
// includeObject parameter asks: the object's metadata (Metadata, the
// default: a PartialObjectMetadata, which kubectl reads for the
// NAMESPACE column and labels), the whole object (Object, in the
// request's version: what kubectl get --sort-by and -o custom-columns
// read), or nothing (None).
func (t target) rowObject(obj meta.Object) any {
	switch t.includeObject {
	case "None":
		return nil
	case "Object":
		if t.served != nil {
			return t.served.FromStoredObject(obj)
		}
		return obj
	}
	return partialOf(obj)
}

// checkIncludeObject is kube-apiserver's check of a Table request's
// includeObject parameter.
func checkIncludeObject(r *http.Request) error {
	switch v := r.URL.Query().Get("includeObject"); v {
	case "", "None", "Metadata", "Object":
		return nil
	default:
		return meta.NewBadRequest(fmt.Sprintf("Unable to convert to Table as requested: includeObject: "+
			"Invalid value: %q: must be 'Metadata', 'Object', 'None', or empty", v))
	}
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
