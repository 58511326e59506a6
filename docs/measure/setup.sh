#!/usr/bin/env bash
# Fetch the lock-heavy modules of docs/measurements.md from the module
# proxy into DIR (default /tmp/lockaudit-corpus), writable, built once so
# that go vet has export data: the four of every round, the four the
# engine was first run on in r7 and r8 (run.sh takes them with
# MODS="syncthing badger grpc raft"), and the ten of r9 to r12
# (MODS="sarama natsgo quic memberlist kafkago goredis pgx miniogo caddy
# geth"), containerd, drawn once in r14 (MODS=containerd),
# Kubernetes' client-go and apiserver, drawn once in r15 (MODS="clientgo
# apiserver"), and Docker (moby) and CometBFT, drawn once in r16
# (MODS="docker cometbft"), and InfluxDB 1.x and Vitess, drawn once in
# r17 (MODS="influxdb vitess"), go-libp2p and lnd, drawn once in r19
# (MODS="libp2p lnd"), and centrifuge, mochi-mqtt, paho.mqtt.golang,
# rocketmq-client-go and tikv's client-go, drawn once in r20
# (MODS="centrifuge mochi paho rocketmq tikv"), Open Policy Agent and
# Jaeger, drawn once in r24 (MODS="opa jaeger"), and franz-go, rueidis,
# amqp091-go, yamux and gocql, drawn once in r25 (MODS="franz rueidis amqp
# yamux gocql"), and kcp-go, clickhouse-go and puddle, read whole in r25
# (MODS="kcp clickhouse puddle"), and tailscale, nsq, dragonboat, CoreDNS
# and Serf, read in r26 (MODS="tailscale nsq dragonboat coredns serf mysql miniredis bigcache freecache etcdraft gnet goplugin"),
# and the modules of r27 (MODS="seaweedfs webrtc spicedb certmagic kine
# sctp statedb ice pubsub kaddht fasthttp ants websocket traefik"), r28
# (MODS="pulsar boxo alertmanager temporal cortex gozero") and r29
# (MODS="xds tsdk bleve vm centrifugo ctrlrt otelsdk otelmetric watermill
# rclone weaviate"), r30 (MODS="livekit buildkit thanos") and r31
# (MODS="nebula swarmkit xray"), r33 (MODS="kubelet ava") and r34
# (MODS="kubo vlogs"), and NATS Streaming, Cilium and Gitea, drawn once in r35
# (MODS="stan cilium gitea"; Cilium's agent packages only, see run.sh),
# and Istio, Grafana's dskit and Optimism, drawn once in r36
# (MODS="istio dskit optimism"; Istio's pilot and pkg trees and
# Optimism's node, batcher, conductor, supernode and service trees only),
# and Matrix's Dendrite homeserver, drawn once in r37 (MODS=dendrite).
# Usage: docs/measure/setup.sh [DIR]
set -euo pipefail
# InfluxDB names toolchain go1.26.10 in go.mod: the machine's Go serves.
export GOTOOLCHAIN=local
dir=${1:-/tmp/lockaudit-corpus}
mkdir -p "$dir"
fetch() { # name module version
	local name=$1 mod=$2 ver=$3
	[ -d "$dir/$name" ] && return 0
	local src
	src=$(cd "$dir" && GOFLAGS=-mod=mod go mod download -json "$mod@$ver" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	cp -r "$src" "$dir/$name"
	chmod -R u+w "$dir/$name"
}
fetch etcd go.etcd.io/etcd/server/v3 v3.7.3
fetch nats github.com/nats-io/nats-server/v2 v2.15.2
fetch prom github.com/prometheus/prometheus v0.316.0
fetch pebble github.com/cockroachdb/pebble v1.1.5
fetch syncthing github.com/syncthing/syncthing v1.30.0
fetch badger github.com/dgraph-io/badger/v4 v4.9.6
fetch grpc google.golang.org/grpc v1.85.0
fetch raft github.com/hashicorp/raft v1.8.0
fetch sarama github.com/IBM/sarama v1.61.1
fetch natsgo github.com/nats-io/nats.go v1.55.0
fetch quic github.com/quic-go/quic-go v0.65.0
fetch memberlist github.com/hashicorp/memberlist v0.7.0
fetch kafkago github.com/segmentio/kafka-go v0.4.51
fetch goredis github.com/redis/go-redis/v9 v9.23.0
fetch pgx github.com/jackc/pgx/v5 v5.12.0
fetch miniogo github.com/minio/minio-go/v7 v7.4.1
fetch caddy github.com/caddyserver/caddy/v2 v2.11.9
fetch geth github.com/ethereum/go-ethereum v1.17.10
fetch containerd github.com/containerd/containerd/v2 v2.4.2
fetch clientgo k8s.io/client-go v0.37.2
fetch apiserver k8s.io/apiserver v0.37.2
fetch docker github.com/docker/docker v28.5.2+incompatible
fetch cometbft github.com/cometbft/cometbft v1.0.1
fetch influxdb github.com/influxdata/influxdb v1.13.2
fetch vitess vitess.io/vitess v0.24.4
fetch libp2p github.com/libp2p/go-libp2p v0.52.0
fetch lnd github.com/lightningnetwork/lnd v0.18.3-beta.rc3
fetch centrifuge github.com/centrifugal/centrifuge v0.40.1
fetch mochi github.com/mochi-mqtt/server/v2 v2.7.9
fetch paho github.com/eclipse/paho.mqtt.golang v1.5.1
fetch rocketmq github.com/apache/rocketmq-client-go/v2 v2.1.3-0.20251226070945-2173d070fd1b
fetch tikv github.com/tikv/client-go/v2 v2.0.4
fetch opa github.com/open-policy-agent/opa v1.22.4
fetch jaeger github.com/jaegertracing/jaeger v1.75.0
fetch franz github.com/twmb/franz-go v1.22.3
fetch rueidis github.com/redis/rueidis v1.0.80
fetch amqp github.com/rabbitmq/amqp091-go v1.17.0
fetch yamux github.com/hashicorp/yamux v0.1.2
fetch gocql github.com/gocql/gocql v1.7.0
fetch kcp github.com/xtaci/kcp-go/v5 v5.7.6
fetch clickhouse github.com/ClickHouse/clickhouse-go/v2 v2.51.0
fetch puddle github.com/jackc/puddle/v2 v2.2.4
fetch tailscale tailscale.com v1.102.5
fetch nsq github.com/nsqio/nsq v1.3.0
fetch dragonboat github.com/lni/dragonboat/v4 v4.0.0-20240618143154-6a1623140f27
fetch coredns github.com/coredns/coredns v1.15.0
fetch serf github.com/hashicorp/serf v0.11.0
fetch mysql github.com/go-sql-driver/mysql v1.11.0
fetch miniredis github.com/alicebob/miniredis/v2 v2.40.0
fetch bigcache github.com/allegro/bigcache/v3 v3.1.0
fetch freecache github.com/coocood/freecache v1.2.7
fetch etcdraft go.etcd.io/raft/v3 v3.7.0
fetch gnet github.com/panjf2000/gnet/v2 v2.9.7
fetch goplugin github.com/hashicorp/go-plugin v1.8.0
fetch seaweedfs github.com/seaweedfs/seaweedfs v0.0.0-20261109003541-7506e5f91cd6
fetch webrtc github.com/pion/webrtc/v4 v4.2.26
fetch spicedb github.com/authzed/spicedb v1.56.2
fetch certmagic github.com/caddyserver/certmagic v0.25.6
fetch kine github.com/k3s-io/kine v0.17.5
fetch sctp github.com/pion/sctp v1.12.0
fetch statedb github.com/cilium/statedb v0.9.4
fetch ice github.com/pion/ice/v4 v4.4.8
fetch pubsub github.com/libp2p/go-libp2p-pubsub v0.19.0
fetch kaddht github.com/libp2p/go-libp2p-kad-dht v0.42.2
fetch fasthttp github.com/valyala/fasthttp v1.79.0
fetch ants github.com/panjf2000/ants/v2 v2.12.1
fetch websocket github.com/gorilla/websocket v1.5.3
fetch traefik github.com/traefik/traefik/v3 v3.7.13
fetch pulsar github.com/apache/pulsar-client-go v0.19.0
fetch boxo github.com/ipfs/boxo v0.43.0
fetch alertmanager github.com/prometheus/alertmanager v0.35.0
# Temporal v1.32.2 needs Go 1.26.10: v1.32.1 builds with the machine's.
fetch temporal go.temporal.io/server v1.32.1
fetch cortex github.com/cortexproject/cortex v1.21.1
fetch gozero github.com/zeromicro/go-zero v1.10.3
fetch xds github.com/envoyproxy/go-control-plane v0.14.0
fetch tsdk go.temporal.io/sdk v1.51.0
fetch bleve github.com/blevesearch/bleve/v2 v2.6.3
fetch vm github.com/VictoriaMetrics/VictoriaMetrics v1.151.0
fetch centrifugo github.com/centrifugal/centrifugo/v6 v6.9.1
fetch ctrlrt sigs.k8s.io/controller-runtime v0.25.3
fetch otelsdk go.opentelemetry.io/otel/sdk v1.47.0
fetch otelmetric go.opentelemetry.io/otel/sdk/metric v1.47.0
fetch watermill github.com/ThreeDotsLabs/watermill v1.5.1
fetch rclone github.com/rclone/rclone v1.76.0
fetch weaviate github.com/weaviate/weaviate v1.35.2
fetch livekit github.com/livekit/livekit-server v1.13.11
fetch buildkit github.com/moby/buildkit v0.35.0
# Thanos v0.42 needs Go 1.26.10: v0.41.0 builds with the machine's.
fetch thanos github.com/thanos-io/thanos v0.41.0
# Nebula v1.12.0 needs Go 1.27.3: v1.11.2 builds with the machine's.
fetch nebula github.com/slackhq/nebula v1.11.2
fetch swarmkit github.com/moby/swarmkit/v2 v2.0.0
fetch xray github.com/xtls/xray-core v1.260327.0
fetch kubelet k8s.io/kubernetes v1.34.4
fetch ava github.com/ava-labs/avalanchego v1.14.2
fetch kubo github.com/ipfs/kubo v0.43.1
fetch vlogs github.com/VictoriaMetrics/VictoriaLogs v1.52.2
fetch stan github.com/nats-io/nats-streaming-server v0.25.6
fetch cilium github.com/cilium/cilium v1.20.2
fetch gitea code.gitea.io/gitea v1.27.3
# Neither tags releases as Go modules: the proxy's pseudo-versions of
# the newest commits it serves.
fetch istio istio.io/istio v0.0.0-20260827124520-eed52ebb66ad
fetch dskit github.com/grafana/dskit v0.0.0-20260703122047-de1ec7541c44
fetch optimism github.com/ethereum-optimism/optimism v1.19.6
fetch dendrite github.com/matrix-org/dendrite v0.13.8
# go-control-plane and the OpenTelemetry SDKs replace their sibling
# modules with directories of their repositories: the proxy's versions
# serve.
for m in xds otelsdk otelmetric; do
	(cd "$dir/$m" && for r in $(go mod edit -json | python3 -c 'import json,sys; [print(r["Old"]["Path"]) for r in json.load(sys.stdin).get("Replace") or [] if r["New"]["Path"].startswith(".")]'); do go mod edit -dropreplace="$r"; done && go mod tidy)
done
# VictoriaMetrics names a client_golang/exp pseudo-version the proxy no
# longer serves: the next one it does stands in.
(cd "$dir/vm" && go mod edit -replace github.com/prometheus/client_golang/exp=github.com/prometheus/client_golang/exp@v0.0.0-20260724065723-ecdb8254ba61 && GOFLAGS=-mod=mod go mod download github.com/prometheus/client_golang/exp)
# LiveKit replaces pion's webrtc, dtls and ice with forks the proxy does
# not serve: pion's own versions stand in, and the two SettingEngine calls
# only the webrtc fork has are commented out.
(cd "$dir/livekit" && if go mod edit -json | grep -q livekit/webrtc-pion; then go mod edit -dropreplace=github.com/pion/webrtc/v4 -dropreplace=github.com/pion/dtls/v3 -dropreplace=github.com/pion/ice/v4 && go mod tidy && sed -i 's/^\t\t\(se\.Enable\(Sped\|SctpSnap\)(true)\)/\t\t\/\/ \1/' pkg/rtc/transport.go; fi)
# Nebula imports a fork of vishvananda/netlink (DefinedNet/netlink
# v1.3.2-dn.1) that the proxy does not serve: the upstream v1.3.1 stands
# in, its imports rewritten.
(cd "$dir/nebula" && if go mod edit -json | grep -q DefinedNet/netlink; then go mod edit -droprequire=github.com/DefinedNet/netlink && grep -rl DefinedNet/netlink --include=*.go . | xargs sed -i 's#github.com/DefinedNet/netlink#github.com/vishvananda/netlink#' && GOFLAGS=-mod=mod go get github.com/vishvananda/netlink@v1.3.1 && go mod tidy; fi)
# Kubernetes replaces its k8s.io/* staging modules with directories its
# module zip does not hold: their releases of the same minor version
# stand in. Only ./pkg/kubelet/... is measured (see run.sh).
(cd "$dir/kubelet" && sed -i -E 's#^(\s*)(k8s.io/[a-z-]+) => ./staging/src/k8s.io/[a-z-]+#\1\2 => \2 v0.34.4#' go.mod)
# avalanchego replaces its graft modules with directories its module zip
# does not hold: their releases of the same version stand in.
(cd "$dir/ava" && if go mod edit -json | grep -q '"Path": "./graft'; then for r in coreth subnet-evm evm; do go mod edit -dropreplace=github.com/ava-labs/avalanchego/graft/$r; done && go mod tidy; fi)
# Cilium replaces controller-tools (a code generator) with a fork the
# proxy refuses: the replace is dropped.
(cd "$dir/cilium" && if go mod edit -json | grep -q '"Path": "github.com/cilium/controller-tools"'; then go mod edit -dropreplace=sigs.k8s.io/controller-tools; fi)
# kubo replaces go-libp2p with a fork the proxy does not serve; v0.49.0,
# which it requires, does not build against the webtransport-go the module
# pins, and v0.50.0 does.
(cd "$dir/kubo" && if go mod edit -json | grep -q '"Path": "github.com/lidel/go-libp2p"'; then go mod edit -dropreplace=github.com/libp2p/go-libp2p && GOFLAGS=-mod=mod go get github.com/libp2p/go-libp2p@v0.50.0; fi)
# swarmkit's module zip has a partial vendor directory: dependencies come
# from the proxy.
(cd "$dir/swarmkit" && if [ -d vendor ]; then rm -rf vendor && go mod tidy; fi)
# Alertmanager's module zip lacks its UI's built assets (ui/app/dist),
# which ui/web.go embeds: an empty index.html stands in.
mkdir -p "$dir/alertmanager/ui/app/dist" && touch "$dir/alertmanager/ui/app/dist/index.html"
# Optimism's module zip lacks the generated superchain-configs.zip that
# op-core/superchain embeds: an empty zip stands in.
[ -f "$dir/optimism/op-core/superchain/superchain-configs.zip" ] || python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").close()' "$dir/optimism/op-core/superchain/superchain-configs.zip"

# Dendrite's x/tools predates Go 1.23's go/token and does not build with
# this Go: a release that does stands in.
(cd "$dir/dendrite" && if grep -q 'golang.org/x/tools v0.21' go.mod; then GOFLAGS=-mod=mod go get golang.org/x/tools@v0.30.0; fi)

# etcd's replace directives point at sibling directories of its repository.
(cd "$dir/etcd" && for r in $(go mod edit -json | python3 -c 'import json,sys; [print(r["Old"]["Path"]) for r in json.load(sys.stdin).get("Replace") or []]'); do go mod edit -dropreplace="$r"; done && go mod tidy)
# lnd replaces its sqldb module with a sibling directory; the proxy's
# v1.0.4 has the query types this release's invoices package uses (v1.0.3
# does not).
(cd "$dir/lnd" && if go mod edit -json | grep -q '"Path": "./sqldb"'; then go mod edit -dropreplace=github.com/lightningnetwork/lnd/sqldb && GOFLAGS=-mod=mod go get github.com/lightningnetwork/lnd/sqldb@v1.0.4; fi)
# Docker is not a Go module yet: its vendor.mod becomes go.mod, and the
# module zip's partial vendor directory goes (dependencies come from the
# proxy).
(cd "$dir/docker" && if [ ! -f go.mod ]; then cp vendor.mod go.mod && cp vendor.sum go.sum && rm -rf vendor && go mod tidy; fi)
# InfluxDB's flux parser links a Rust library (libflux) through
# pkg-config. Type-checking needs only its header, which the flux module
# ships: a stand-in flux.pc points at it (nothing is linked; run.sh and
# the lockaudit runs need PKG_CONFIG_PATH=$dir/pc too).
fluxdir=$(cd "$dir/influxdb" && go list -m -f '{{.Dir}}' github.com/influxdata/flux)
mkdir -p "$dir/pc"
printf 'Name: flux\nDescription: header-only stand-in, for type-checking\nVersion: 0\nCflags: -I%s/libflux/include\nLibs:\n' "$fluxdir" >"$dir/pc/flux.pc"
export PKG_CONFIG_PATH=$dir/pc
# nats.go's go.mod lacks its encoders' protobuf requirement.
(cd "$dir/natsgo" && go mod tidy)
# Prometheus' go.work names modules its zip does not hold (and so may
# others').
# MODS limits the build to some of them (all are fetched).
mods=${MODS:-"etcd nats prom pebble syncthing badger grpc raft sarama natsgo quic memberlist kafkago goredis pgx miniogo caddy geth containerd clientgo apiserver docker cometbft influxdb vitess libp2p lnd centrifuge mochi paho rocketmq tikv opa jaeger franz rueidis amqp yamux gocql kcp clickhouse puddle tailscale nsq dragonboat coredns serf mysql miniredis bigcache freecache etcdraft gnet goplugin seaweedfs webrtc spicedb certmagic kine sctp statedb ice pubsub kaddht fasthttp ants websocket traefik pulsar boxo alertmanager temporal cortex gozero xds tsdk bleve vm centrifugo ctrlrt otelsdk otelmetric watermill rclone weaviate livekit buildkit thanos nebula swarmkit xray kubelet ava kubo vlogs stan cilium gitea istio dskit optimism dendrite"}
for m in $mods; do
	rm -f "$dir/$m/go.work" "$dir/$m/go.work.sum"
done
# Syncthing's lib/api needs generated assets: it and its importers are
# reported as errors, the other packages are analysed.
for m in $mods; do
	(cd "$dir/$m" && go mod download && go build ./... && go vet -vettool=/bin/true ./... 2>/dev/null || true)
done
echo "corpus ready in $dir"
