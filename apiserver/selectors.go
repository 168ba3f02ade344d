package apiserver

import "github.com/kitchensync/kitchensync/apiserver/meta"

// selectors are the parsed label and field selectors of a list or watch.
type selectors struct {
	labels *meta.LabelSelector
	fields *meta.FieldSelector
}

// parseSelectors parses and checks the selectors of opts for kind info.
func parseSelectors(info meta.KindInfo, opts meta.ListOptions) (selectors, error) {
	labels, err := meta.ParseLabelSelector(opts.LabelSelector)
	if err != nil {
		return selectors{}, err
	}
	fields, err := meta.ParseFieldSelector(opts.FieldSelector)
	if err != nil {
		return selectors{}, err
	}
	if err := info.ValidateFieldSelector(fields); err != nil {
		return selectors{}, err
	}
	return selectors{labels: labels, fields: fields}, nil
}

// matches reports whether obj is selected.
func (s selectors) matches(info meta.KindInfo, obj meta.Object) bool {
	if !s.labels.Matches(obj.GetObjectMeta().Labels) {
		return false
	}
	return s.fields.Empty() || s.fields.Matches(info.FieldSet(obj))
}

func (s selectors) empty() bool { return s.labels.Empty() && s.fields.Empty() }
