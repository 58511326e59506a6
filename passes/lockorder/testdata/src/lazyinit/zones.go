package lazyinit

import "sync"

// A Zone is a time zone with an optional parent it inherits rules from.
type Zone struct {
	Name, ParentName string
	Parent           *Zone
}

var (
	zonesOnce sync.Once
	zones     map[string]*Zone
)

func parseZones() map[string]*Zone { return map[string]*Zone{} }

// Zones returns the zone table, parsed on first use.
func Zones() map[string]*Zone {
	zonesOnce.Do(loadZones) // want `zonesOnce.Do called again by loadZones`
	return zones
}

// loadZones links parents through LookupZone, which calls Zones again.
func loadZones() {
	zones = parseZones()
	for _, z := range zones {
		z.Parent = LookupZone(z.ParentName)
	}
}

// LookupZone returns the zone called name, or nil.
func LookupZone(name string) *Zone { return Zones()[name] }

var (
	fixedZonesOnce sync.Once
	fixedZones     map[string]*Zone
)

// FixedZones links parents in the table it has just parsed.
func FixedZones() map[string]*Zone {
	fixedZonesOnce.Do(loadFixedZones)
	return fixedZones
}

func loadFixedZones() {
	t := parseZones()
	for _, z := range t {
		z.Parent = t[z.ParentName]
	}
	fixedZones = t
}

// FixedLookupZone returns the zone called name, or nil.
func FixedLookupZone(name string) *Zone { return FixedZones()[name] }
