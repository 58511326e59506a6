// Models kubernetes#30872 (GoKer kubernetes_30872): the federation's
// federatedInformerImpl.ClustersSynced holds the informer's embedded mutex
// and asks the cluster informer's controller whether it has synced, which
// takes the DeltaFIFO's lock; the controller's processLoop pops from the
// DeltaFIFO, and DeltaFIFO.Pop holds its lock while it runs the process
// function, which (Config.Process -> ResourceEventHandler.OnAdd ->
// ResourceEventHandlerFuncs.AddFunc, a closure built in NewFederatedInformer)
// adds the cluster under the federated informer's mutex (AB-BA; one edge runs
// through a func-typed field, an interface and a closure stored in a struct).
package k8s_fedinformer_addfunc

import "sync"

// Cluster is a federated cluster object.
type Cluster struct {
	Name string
}

// PopProcessFunc processes one popped item.
type PopProcessFunc func(obj interface{}) error

// DeltaFIFO is client-go's queue, reduced.
type DeltaFIFO struct {
	lock        sync.RWMutex
	cond        sync.Cond
	items       map[string]interface{}
	queue       []string
	initialized bool
}

// NewDeltaFIFO returns an empty queue.
func NewDeltaFIFO() *DeltaFIFO {
	f := &DeltaFIFO{items: map[string]interface{}{}}
	f.cond.L = &f.lock
	return f
}

// Add queues obj.
func (f *DeltaFIFO) Add(key string, obj interface{}) {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.initialized = true
	if _, ok := f.items[key]; !ok {
		f.queue = append(f.queue, key)
	}
	f.items[key] = obj
	f.cond.Broadcast()
}

// HasSynced reports whether the initial list has been delivered.
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.initialized && len(f.queue) == 0
}

// Pop waits for an item and processes it with the lock held, as client-go does.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for len(f.queue) == 0 {
		f.cond.Wait()
	}
	id := f.queue[0]
	f.queue = f.queue[1:]
	item := f.items[id]
	delete(f.items, id)
	return item, process(item)
}

// Queue is what a controller pops from.
type Queue interface {
	Pop(PopProcessFunc) (interface{}, error)
	HasSynced() bool
}

// Config configures a controller.
type Config struct {
	Queue
	Process PopProcessFunc
}

// Controller runs the informer's process loop.
type Controller struct {
	config Config
}

// HasSynced reports whether the queue has synced.
func (c *Controller) HasSynced() bool { return c.config.Queue.HasSynced() }

func (c *Controller) processLoop(stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		default:
		}
		_, _ = c.config.Queue.Pop(c.config.Process)
	}
}

// ResourceEventHandler handles notifications.
type ResourceEventHandler interface {
	OnAdd(obj interface{})
}

// ResourceEventHandlerFuncs adapts funcs to ResourceEventHandler.
type ResourceEventHandlerFuncs struct {
	AddFunc func(obj interface{})
}

// OnAdd calls AddFunc if it is set.
func (r ResourceEventHandlerFuncs) OnAdd(obj interface{}) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// NewInformer returns a queue and a controller that feeds h.
func NewInformer(h ResourceEventHandler) (*DeltaFIFO, *Controller) {
	fifo := NewDeltaFIFO()
	cfg := Config{
		Queue: fifo,
		Process: func(obj interface{}) error {
			h.OnAdd(obj)
			return nil
		},
	}
	return fifo, &Controller{config: cfg}
}

type informer struct {
	store      *DeltaFIFO
	controller *Controller
	stopChan   chan struct{}
}

// federatedInformerImpl watches clusters and the objects in each. Buggy version.
type federatedInformerImpl struct {
	sync.Mutex
	clusterInformer informer
	clusters        map[string]*Cluster
}

// NewFederatedInformer builds the cluster informer.
func NewFederatedInformer() *federatedInformerImpl {
	federatedInformer := &federatedInformerImpl{clusters: map[string]*Cluster{}}
	store, controller := NewInformer(ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			federatedInformer.addCluster(obj.(*Cluster))
		},
	})
	federatedInformer.clusterInformer = informer{store: store, controller: controller}
	return federatedInformer
}

func (f *federatedInformerImpl) addCluster(cluster *Cluster) {
	f.Lock()
	defer f.Unlock()
	f.clusters[cluster.Name] = cluster
}

// ClustersSynced reports whether the cluster list has been synced.
func (f *federatedInformerImpl) ClustersSynced() bool {
	f.Lock()
	defer f.Unlock()
	return f.clusterInformer.controller.HasSynced() // BUG: informer mutex -> fifo lock
}

// Start runs the cluster informer.
func (f *federatedInformerImpl) Start() {
	f.Lock()
	defer f.Unlock()
	f.clusterInformer.stopChan = make(chan struct{})
	go f.clusterInformer.controller.processLoop(f.clusterInformer.stopChan)
}

// federatedInformerImplFixed is the fixed version: ClustersSynced reads the
// controller under the mutex and asks it after releasing the mutex.
type federatedInformerImplFixed struct {
	sync.Mutex
	clusterInformer informer
	clusters        map[string]*Cluster
}

// NewFederatedInformerFixed builds the cluster informer.
func NewFederatedInformerFixed() *federatedInformerImplFixed {
	federatedInformer := &federatedInformerImplFixed{clusters: map[string]*Cluster{}}
	store, controller := NewInformer(ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			federatedInformer.addClusterFixed(obj.(*Cluster))
		},
	})
	federatedInformer.clusterInformer = informer{store: store, controller: controller}
	return federatedInformer
}

func (f *federatedInformerImplFixed) addClusterFixed(cluster *Cluster) {
	f.Lock()
	defer f.Unlock()
	f.clusters[cluster.Name] = cluster
}

// ClustersSynced reports whether the cluster list has been synced.
func (f *federatedInformerImplFixed) ClustersSynced() bool {
	f.Lock()
	controller := f.clusterInformer.controller
	f.Unlock()
	return controller.HasSynced()
}

// Start runs the cluster informer.
func (f *federatedInformerImplFixed) Start() {
	f.Lock()
	defer f.Unlock()
	f.clusterInformer.stopChan = make(chan struct{})
	go f.clusterInformer.controller.processLoop(f.clusterInformer.stopChan)
}
