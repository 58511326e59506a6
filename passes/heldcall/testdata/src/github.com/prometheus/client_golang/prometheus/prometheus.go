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
