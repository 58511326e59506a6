#!/usr/bin/env bash
# Run a lockaudit binary over the corpus of docs/measure/setup.sh with
# default flags (warnings) and with -severity note, writing
# OUT/<module>-warnings.json and OUT/<module>-notes.json, and each run's
# wall time and peak RSS to OUT/<module>-*.time.
# Usage: docs/measure/run.sh BIN OUT [CORPUS]   (MODS="etcd nats" to choose,
# WARNINGS_ONLY=1 to skip the -severity note run)
set -euo pipefail
bin=$(realpath "$1"); out=$(realpath -m "$2"); dir=${3:-/tmp/lockaudit-corpus}
mkdir -p "$out"
# As setup.sh prepared the corpus: the machine's Go, and InfluxDB's flux
# header stand-in.
export GOTOOLCHAIN=local
[ -d "$dir/pc" ] && export PKG_CONFIG_PATH=$dir/pc
# The packages measured: the whole module, except in Kubernetes, of which
# only the kubelet is, in Cilium, of which eleven agent package trees
# are (others need modules the proxy refuses), and in Istio, of which the
# control plane (pilot) and the shared packages (pkg) are, and in
# Optimism, of which the node, batcher, conductor, supernode and shared
# service trees are.
pkgs() {
	case $1 in
	kubelet) echo ./pkg/kubelet/... ;;
	istio) echo ./pilot/... ./pkg/... ;;
	optimism) echo ./op-node/... ./op-service/... ./op-batcher/... ./op-conductor/... ./op-supernode/... ;;
	cilium) echo ./pkg/endpoint/... ./pkg/policy/... ./pkg/ipcache/... ./pkg/node/... ./pkg/proxy/... ./pkg/identity/... ./pkg/fqdn/... ./pkg/endpointmanager/... ./pkg/kvstore/... ./pkg/ipam/... ./pkg/hubble/... ;;
	*) echo ./... ;;
	esac
}
for m in ${MODS:-etcd nats prom pebble}; do
	(
		cd "$dir/$m"
		/usr/bin/time -v -o "$out/$m-warnings.time" "$bin" check -format json -o "$out/$m-warnings.json" $(pkgs "$m") 2> >(tee "$out/$m-warnings.stderr" >&2) || true
		if [ -z "${WARNINGS_ONLY:-}" ]; then
			/usr/bin/time -v -o "$out/$m-notes.time" "$bin" check -severity note -format json -o "$out/$m-notes.json" $(pkgs "$m") 2> >(tee "$out/$m-notes.stderr" >&2) || true
		fi
	)
	echo "$m done: $(python3 "$(dirname "$0")/counts.py" "$out/$m-warnings.json")"
	# A full disk fails packages one by one, and their findings go missing
	# from the counts: say so rather than report a smaller module.
	if grep -qs "no space left on device" "$out/$m"-*.stderr; then
		echo "$m: RUN INVALID, the disk filled up (see $out/$m-*.stderr); free space and run it again" >&2
	fi
done
