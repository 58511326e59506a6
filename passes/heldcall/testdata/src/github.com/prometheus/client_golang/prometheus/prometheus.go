// Package prometheus is a minimal stand-in for the Prometheus client's
// metric interfaces, enough for the heldcall tests to type-check.
package prometheus

// Counter is a monotonically increasing metric.
type Counter interface {
	Inc()
	Add(float64)
}

// Gauge is a metric that goes up and down.
type Gauge interface {
	Set(float64)
	Inc()
	Dec()
}

// Observer records observations, as a Histogram or a Summary does.
type Observer interface {
	Observe(float64)
}

// Desc describes a metric.
type Desc struct{ fqName string }

// NewDesc returns the description of a metric.
func NewDesc(fqName, help string, labels []string, constLabels map[string]string) *Desc {
	return &Desc{fqName: fqName}
}

// Metric is one sample a Collector sends.
type Metric interface {
	Desc() *Desc
}

// Collector is what a Registry gathers from: it hands Collect a buffered
// channel that it drains while the collectors run.
type Collector interface {
	Describe(chan<- *Desc)
	Collect(chan<- Metric)
}

type constMetric struct {
	desc  *Desc
	value float64
}

func (m *constMetric) Desc() *Desc { return m.desc }

// MustNewConstMetric returns a metric with a fixed value.
func MustNewConstMetric(desc *Desc, value float64) Metric {
	return &constMetric{desc: desc, value: value}
}
