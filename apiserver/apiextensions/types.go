package apiextensions

import (
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// CustomResourceDefinition defines a kind: its group, names, scope,
// versions and their schemas. Creating one makes the server serve the
// kind (see [Install]). Field for field it is apiextensions.k8s.io/v1's,
// so the CRDs that kubebuilder and controller-gen write are read as they
// are.
type CustomResourceDefinition struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            CustomResourceDefinitionSpec   `json:"spec"`
	Status          CustomResourceDefinitionStatus `json:"status"`
}

// CustomResourceDefinitionSpec is what the definition asks for.
type CustomResourceDefinitionSpec struct {
	// Group is the API group of the kind, a DNS subdomain with at least
	// one dot, e.g. "bakery.example.com"; the definition's name is
	// <plural>.<group>.
	Group string                        `json:"group"`
	Names CustomResourceDefinitionNames `json:"names"`
	// Scope is "Namespaced" or "Cluster".
	Scope ResourceScope `json:"scope"`
	// Versions are the versions served; exactly one is the storage
	// version.
	Versions []CustomResourceDefinitionVersion `json:"versions"`
	// Conversion says how objects change between versions: only
	// "None" (apiVersion relabelled) is served here.
	Conversion *CustomResourceConversion `json:"conversion,omitempty"`
	// PreserveUnknownFields must be false in apiextensions.k8s.io/v1.
	PreserveUnknownFields bool `json:"preserveUnknownFields,omitempty"`
}

// ResourceScope is where the kind's objects live.
type ResourceScope string

// The two scopes.
const (
	ClusterScoped   ResourceScope = "Cluster"
	NamespaceScoped ResourceScope = "Namespaced"
)

// CustomResourceConversion says how objects are converted between
// versions.
type CustomResourceConversion struct {
	// Strategy is "None" or "Webhook".
	Strategy ConversionStrategyType `json:"strategy"`
	// Webhook is kept as sent; kitchensync calls no webhooks.
	Webhook *WebhookConversion `json:"webhook,omitempty"`
}

// ConversionStrategyType is how versions are converted.
type ConversionStrategyType string

// The conversion strategies.
const (
	NoneConverter    ConversionStrategyType = "None"
	WebhookConverter ConversionStrategyType = "Webhook"
)

// WebhookConversion configures a conversion webhook (not called here).
type WebhookConversion struct {
	ClientConfig             *WebhookClientConfig `json:"clientConfig,omitempty"`
	ConversionReviewVersions []string             `json:"conversionReviewVersions"`
}

// WebhookClientConfig says how to reach a webhook.
type WebhookClientConfig struct {
	URL      *string           `json:"url,omitempty"`
	Service  *ServiceReference `json:"service,omitempty"`
	CABundle []byte            `json:"caBundle,omitempty"`
}

// ServiceReference names a Service that serves a webhook.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path,omitempty"`
	Port      *int32  `json:"port,omitempty"`
}

// CustomResourceDefinitionVersion is one version of the kind.
type CustomResourceDefinitionVersion struct {
	// Name is the version, e.g. "v1" or "v1beta1".
	Name string `json:"name"`
	// Served says whether the version is served.
	Served bool `json:"served"`
	// Storage marks the one version objects are stored in.
	Storage bool `json:"storage"`
	// Deprecated versions answer with a warning.
	Deprecated         bool    `json:"deprecated,omitempty"`
	DeprecationWarning *string `json:"deprecationWarning,omitempty"`
	// Schema validates, defaults and prunes the version's objects.
	Schema *CustomResourceValidation `json:"schema,omitempty"`
	// Subresources are status and scale.
	Subresources *CustomResourceSubresources `json:"subresources,omitempty"`
	// AdditionalPrinterColumns are the columns of kubectl get.
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty"`
	// SelectableFields are the fields field selectors may use.
	SelectableFields []SelectableField `json:"selectableFields,omitempty"`
}

// SelectableField is a field that field selectors may use, by a JSON
// path such as ".spec.color".
type SelectableField struct {
	JSONPath string `json:"jsonPath"`
}

// CustomResourceColumnDefinition is one column of kubectl get.
type CustomResourceColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	JSONPath    string `json:"jsonPath"`
}

// CustomResourceDefinitionNames are the kind's names.
type CustomResourceDefinitionNames struct {
	// Plural is the resource, e.g. "cakes".
	Plural string `json:"plural"`
	// Singular defaults to the lowercase kind.
	Singular string `json:"singular,omitempty"`
	// ShortNames are abbreviations kubectl takes.
	ShortNames []string `json:"shortNames,omitempty"`
	// Kind is the CamelCase type name, e.g. "Cake".
	Kind string `json:"kind"`
	// ListKind defaults to Kind + "List".
	ListKind string `json:"listKind,omitempty"`
	// Categories group resources, e.g. "all" for kubectl get all.
	Categories []string `json:"categories,omitempty"`
}

// CustomResourceValidation holds a version's schema.
type CustomResourceValidation struct {
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty"`
}

// CustomResourceSubresources are a version's subresources.
type CustomResourceSubresources struct {
	Status *CustomResourceSubresourceStatus `json:"status,omitempty"`
	Scale  *CustomResourceSubresourceScale  `json:"scale,omitempty"`
}

// CustomResourceSubresourceStatus turns the status subresource on; it
// has no fields.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale says where the replicas are.
type CustomResourceSubresourceScale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath,omitempty"`
}

// CustomResourceDefinitionStatus is what the server observed: the
// conditions, the names it accepted and the versions objects have been
// stored in.
type CustomResourceDefinitionStatus struct {
	Conditions     []CustomResourceDefinitionCondition `json:"conditions"`
	AcceptedNames  CustomResourceDefinitionNames       `json:"acceptedNames"`
	StoredVersions []string                            `json:"storedVersions"`
}

// ConditionType is the type of a definition's condition.
type ConditionType string

// The conditions the server sets on a definition.
const (
	// Established: the kind is served.
	Established ConditionType = "Established"
	// NamesAccepted: the names clash with no other definition's.
	NamesAccepted ConditionType = "NamesAccepted"
	// Terminating: the definition is being deleted, its objects first.
	Terminating ConditionType = "Terminating"
)

// ConditionStatus is "True", "False" or "Unknown".
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// CustomResourceDefinitionCondition is one condition of a definition.
type CustomResourceDefinitionCondition struct {
	Type               ConditionType   `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastTransitionTime meta.Time       `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
}

// Condition returns the condition of type t, or nil.
func (crd *CustomResourceDefinition) Condition(t ConditionType) *CustomResourceDefinitionCondition {
	for i := range crd.Status.Conditions {
		if crd.Status.Conditions[i].Type == t {
			return &crd.Status.Conditions[i]
		}
	}
	return nil
}

// IsTrue reports whether the condition of type t is True.
func (crd *CustomResourceDefinition) IsTrue(t ConditionType) bool {
	c := crd.Condition(t)
	return c != nil && c.Status == ConditionTrue
}

// StorageVersion returns the name of the storage version, or "".
func (crd *CustomResourceDefinition) StorageVersion() string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// DeepCopyObject returns a copy of crd that shares no memory with it.
func (crd *CustomResourceDefinition) DeepCopyObject() meta.Object {
	return deepCopyJSON(crd)
}

// DeepCopy returns a copy of names that shares no memory with it.
func (n CustomResourceDefinitionNames) DeepCopy() CustomResourceDefinitionNames {
	n.ShortNames, n.Categories = slices.Clone(n.ShortNames), slices.Clone(n.Categories)
	return n
}
