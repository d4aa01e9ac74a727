//! Proptest strategies for the simulator's inputs: seeds, fault rates, explicit injections
//! and whole scenarios, shaped so that shrinking ends on a minimal schedule.
//!
//! Every strategy draws plain numbers first and builds the scenario from them with
//! `prop_map`, so proptest shrinks the numbers: lists lose elements (fewer requests, fewer
//! injections), indices and quantities go towards 0, seeds towards 0. A drawn reference that no
//! longer fits a smaller scenario (an injection naming a request that was shrunk away) is
//! redirected to a request that exists or dropped, so every generated scenario is valid.

use proptest::prelude::*;

use crate::faults::FaultClass;
use crate::idempotency::{Config as ApiConfig, FailurePolicy};
use crate::ids::{PaymentId, Sku};
use crate::outbox::RelayConfig;
use crate::shop::{InitialStock, ShopConfig};
use crate::sim::{
    ApiCrashPoint, ClientConfig, ConsumerSetup, FaultRates, INSTANCES_MIN, Injection, InjectionAim,
    KeyOnRetry, Limits, MessageRef, Operation, Patterns, RequestIndex, RequestSpec,
    RetentionJobConfig, SCENARIO_FORMAT_VERSION, Scenario, ScheduleConfig,
};
use crate::store::OrderLine;

/// The skus the generated orders name.
const SKUS: [&str; 2] = ["apple", "pear"];

/// The initial stock of each sku in a generated scenario: enough for every request to order
/// the most of one sku (3 requests of 3), so that running out of stock (which dead-letters a
/// message: an operational outcome of its own, not a pattern failure) never hides what the
/// patterns do.
const STOCK_PER_SKU: i64 = 10;

/// How many deliveries a message gets before the broker dead-letters it, in generated
/// scenarios: more than the crashes a run can take (`Limits::random_faults_max`, 8, plus 4
/// injections), so that a run of bad luck with crashes never dead-letters a message (an
/// outcome of its own, never counted by I6) before the patterns are tested on it.
const DELIVERIES_MAX: u32 = 16;

/// The shop of generated scenarios, with `qty` of each sku.
fn generated_shop(qty: i64) -> ShopConfig {
    ShopConfig {
        stock: SKUS.iter().map(|sku| InitialStock { sku: Sku::new(*sku), qty }).collect(),
        ..ShopConfig::default()
    }
}

/// What a generated scenario may contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioShape {
    /// Which twin of each pattern runs.
    pub patterns: Patterns,
    /// The most requests (the first always places an order); at least 1.
    pub requests_max: usize,
    /// The most explicit injections.
    pub injections_max: usize,
    /// The fault classes injections are drawn from; none means no injections.
    pub fault_classes: Vec<FaultClass>,
    /// Whether random fault rates are drawn too (for the same classes).
    pub random_faults: RandomFaults,
}

/// Whether a generated scenario also carries random fault rates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RandomFaults {
    /// Only explicit injections: the schedule is readable and shrinks to a short list.
    #[default]
    Off,
    /// Rates per class too, shrinking towards 0.
    On,
}

impl ScenarioShape {
    /// Up to 3 requests and 4 injections of `classes`, no random rates, with `patterns`.
    pub fn new(patterns: Patterns, classes: &[FaultClass]) -> ScenarioShape {
        ScenarioShape {
            patterns,
            requests_max: 3,
            injections_max: 4,
            fault_classes: classes.to_vec(),
            random_faults: RandomFaults::Off,
        }
    }
}

/// A simulator seed; shrinks towards 0.
pub(crate) fn seed() -> impl Strategy<Value = u64> {
    any::<u64>()
}

/// Fault rates for `classes`, each 0 to 200 000 per million; shrinks towards no faults.
pub(crate) fn fault_rates(classes: Vec<FaultClass>) -> impl Strategy<Value = FaultRates> {
    let count = classes.len();
    prop::collection::vec(0u32..=200_000, count).prop_map(move |rates| {
        FaultRates(
            classes
                .iter()
                .zip(rates)
                .filter(|(_, rate)| *rate > 0)
                .map(|(class, rate)| (*class, rate))
                .collect(),
        )
    })
}

/// The numbers an injection is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct InjectionDraft {
    class: usize,
    target: usize,
    other: usize,
    ordinal: u32,
    late_point: bool,
}

fn injection_draft() -> impl Strategy<Value = InjectionDraft> {
    (0usize..12, 0usize..8, 0usize..8, 1u32..=2, any::<bool>()).prop_map(
        |(class, target, other, ordinal, late_point)| InjectionDraft {
            class,
            target,
            other,
            ordinal,
            late_point,
        },
    )
}

/// The numbers a request is built from: 0 places an order, 1 pays the first order, 2 cancels
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RequestDraft {
    kind: u8,
    sku: usize,
    qty: u32,
}

fn request_draft() -> impl Strategy<Value = RequestDraft> {
    (0u8..3, 0usize..SKUS.len(), 1u32..=3).prop_map(|(kind, sku, qty)| RequestDraft {
        kind,
        sku,
        qty,
    })
}

/// One injection of a class in `classes`, in a scenario of `requests` (index 0 places an
/// order); `None` when the class needs what the scenario lacks.
fn build_injection(
    draft: InjectionDraft,
    classes: &[FaultClass],
    requests: &[RequestSpec],
) -> Option<Injection> {
    let class = *classes.get(draft.class % classes.len().max(1))?;
    let count = requests.len().max(1);
    let orders: Vec<RequestIndex> = requests
        .iter()
        .enumerate()
        .filter(|(_, spec)| matches!(spec.operation, Operation::PlaceOrder { .. }))
        .map(|(index, _)| RequestIndex(index))
        .collect();
    let message = MessageRef::OrderPlacedOf(*orders.get(draft.target % orders.len().max(1))?);
    let request = RequestIndex(draft.target % count);
    let aim = InjectionAim {
        message,
        request,
        key_of: (count >= 2)
            .then(|| RequestIndex((request.0 + 1 + draft.other % (count - 1)) % count)),
        after_request: RequestIndex(draft.other % count),
        ordinal: draft.ordinal,
        point: if draft.late_point {
            ApiCrashPoint::AfterHandlerCommitted
        } else {
            ApiCrashPoint::AfterKeyReserved
        },
    };
    Injection::of_class(class, aim)
}

fn build_request(index: usize, draft: RequestDraft) -> RequestSpec {
    let place = RequestSpec {
        operation: Operation::PlaceOrder {
            lines: vec![OrderLine {
                sku: Sku::new(SKUS.get(draft.sku).copied().unwrap_or("apple")),
                qty: draft.qty,
            }],
        },
        send_at_tick: 0,
        after: None,
    };
    if index == 0 {
        return place;
    }
    let first = RequestIndex(0);
    match draft.kind {
        1 => RequestSpec {
            operation: Operation::PayOrder {
                order_of: first,
                payment_id: PaymentId::new(format!("pay-{index}")),
            },
            send_at_tick: 0,
            after: Some(first),
        },
        2 => RequestSpec {
            operation: Operation::CancelOrder { order_of: first },
            send_at_tick: 0,
            after: Some(first),
        },
        _ => place,
    }
}

/// A scenario of `shape`, in a shop with 10 apples and 10 pears: 1 to `requests_max` requests (the first places an order; the
/// others place one, pay the first or cancel it), up to `injections_max` injections of the
/// shape's classes, and random rates if asked. Shrinks to fewer requests and fewer faults.
pub fn scenario(shape: ScenarioShape) -> impl Strategy<Value = Scenario> {
    let requests = prop::collection::vec(request_draft(), 1..=shape.requests_max.max(1));
    let injections = prop::collection::vec(
        injection_draft(),
        0..=if shape.fault_classes.is_empty() { 0 } else { shape.injections_max },
    );
    let rates = match shape.random_faults {
        RandomFaults::Off => Just(FaultRates::none()).boxed(),
        RandomFaults::On => fault_rates(shape.fault_classes.clone()).boxed(),
    };
    (requests, injections, rates).prop_map(move |(requests, injections, fault_rates)| {
        let requests: Vec<RequestSpec> = requests
            .into_iter()
            .enumerate()
            .map(|(index, draft)| build_request(index, draft))
            .collect();
        let mut scenario = Scenario {
            format_version: SCENARIO_FORMAT_VERSION,
            id: "generated".to_owned(),
            title: "A generated scenario".to_owned(),
            description: "Drawn by the property fuzzer.".to_owned(),
            patterns: shape.patterns,
            focus: vec![],
            shop: generated_shop(STOCK_PER_SKU),
            requests,
            client: ClientConfig::default(),
            api: Default::default(),
            consumers: ConsumerSetup { deliveries_max: DELIVERIES_MAX, ..ConsumerSetup::default() },
            relay: Default::default(),
            retention_job: RetentionJobConfig::default(),
            schedule: ScheduleConfig::default(),
            injections: Vec::new(),
            fault_rates,
            limits: Limits::default(),
            consumer_program: None,
            mark_paid_program: None,
        };
        for draft in injections {
            if let Some(injection) =
                build_injection(draft, &shape.fault_classes, &scenario.requests)
            {
                scenario.injections.push(injection);
                if scenario.validate().is_err() {
                    scenario.injections.pop();
                }
            }
        }
        scenario
    })
}

/// One case of the fuzzer: a scenario and a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzCase {
    /// The scenario.
    pub scenario: Scenario,
    /// The simulator's seed.
    pub seed: u64,
}

/// Cases from `scenarios` and [`seed`].
pub fn fuzz_case(scenarios: impl Strategy<Value = Scenario>) -> impl Strategy<Value = FuzzCase> {
    (scenarios, seed()).prop_map(|(scenario, seed)| FuzzCase { scenario, seed })
}

/// The configuration of a generated scenario's world, beside its requests and faults: what
/// [`world_config`] draws and [`configured_scenario`] applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WorldConfig {
    /// The initial stock of each sku.
    pub(crate) stock_per_sku: i64,
    /// The clients' retry policy.
    pub(crate) client: ClientConfig,
    /// The `Idempotency-Key` layer's lease, retention and failure policy.
    pub(crate) api: ApiConfig,
    /// The consumer instances and the broker.
    pub(crate) consumers: ConsumerSetup,
    /// The outbox relay.
    pub(crate) relay: RelayConfig,
    /// The retention job (off: see [`world_config`]).
    pub(crate) retention_job: RetentionJobConfig,
    /// How often the clock advances while work could run.
    pub(crate) schedule: ScheduleConfig,
}

impl WorldConfig {
    /// `scenario` with this configuration.
    pub(crate) fn apply_to(&self, scenario: Scenario) -> Scenario {
        Scenario {
            shop: generated_shop(self.stock_per_sku),
            client: self.client,
            api: self.api,
            consumers: self.consumers,
            relay: self.relay,
            retention_job: self.retention_job,
            schedule: self.schedule,
            ..scenario
        }
    }
}

/// The fault classes an idempotent shop is meant to survive: F1-F6, F9 and F12. Left out, as
/// the lessons say no pattern of the lab fixes them:
/// - F7 (a key reused for another payload) and F11 (a retry with a new key) are client bugs:
///   the layer answers F7 with 422 and cannot recognise F11's retry at all;
/// - F8 (the API crashes) includes a crash after the handler's commit and before the key is
///   completed, after which a takeover runs the handler again: the P3 layer's documented
///   limit (`idempotency::layer`);
/// - F10 (a duplicate after the retention window) is the retention lesson: the row that
///   recognised the duplicate is gone, and I6 turns red on purpose.
pub const SURVIVABLE_FAULTS: [FaultClass; 8] = [
    FaultClass::F1,
    FaultClass::F2,
    FaultClass::F3,
    FaultClass::F4,
    FaultClass::F5,
    FaultClass::F6,
    FaultClass::F9,
    FaultClass::F12,
];

/// The shortest retention window drawn (API keys and inbox rows): longer than any generated
/// run's retries and redeliveries (3 chained requests of at most 6 attempts, each waiting out
/// at most 40 + 40 ticks, are 1 440 ticks), so that a key or an inbox row is never forgotten
/// while a duplicate can still come: that is F10's lesson, which no pattern fixes.
pub(crate) const RETENTION_TICKS_MIN: u64 = 2_000;

/// The shortest lease drawn for the `Idempotency-Key` layer: longer than any generated run,
/// like [`RETENTION_TICKS_MIN`]. With early clock advances a request can be slow, and a lease
/// that ends while its request still runs lets a retry take the key over and run the handler a
/// second time (a second order): the layer's documented limit, the same as a crash after the
/// handler's commit (F8). The configured property found it with a 1-tick lease: the extra
/// orders ran the stock out (I6 through dead letters; I1 with the naive ledger).
pub(crate) const LEASE_TICKS_MIN: u64 = 2_000;

/// A world configuration within the ranges an idempotent shop is meant to survive; shrinks
/// towards the smallest values.
///
/// - stock: 9 to 20 of each sku, never less than 3 requests of 3 can order, so that running
///   out of stock (which dead-letters a message: its own outcome, not a pattern failure) never
///   hides what the patterns do;
/// - clients: a timeout of 1 to 40 ticks, 1 to 6 attempts, a backoff of 1 to 40 ticks, always
///   the same key on a retry (a new key is F11, a client bug no pattern can recognise);
/// - API: a lease of [`LEASE_TICKS_MIN`] to 10 000 ticks, either failure policy, and a
///   retention window of [`RETENTION_TICKS_MIN`] to 10 000 ticks;
/// - consumers: 2 or 3 instances (a scenario needs at least 2, [`INSTANCES_MIN`], so that a
///   race can happen), a visibility timeout of 1 to 40 ticks, 16 deliveries before a dead
///   letter (see `DELIVERIES_MAX`), an inbox retention of [`RETENTION_TICKS_MIN`] to 10 000;
/// - relay: batches of 1 to 16 rows;
/// - an early clock advance of 0 to 5% per step, which makes timeouts fire on slow requests
///   and slow consumers;
/// - the retention job stays off: when on, the clock jumps to the moment rows expire while
///   copies of a message may still be on their way (a relay crash's second publish, a held
///   delivery), and a copy that arrives after its inbox row was purged is processed again:
///   F10's lesson again.
pub(crate) fn world_config() -> impl Strategy<Value = WorldConfig> {
    let client = (1u64..=40, 1u32..=6, 1u64..=40).prop_map(
        |(timeout_ticks, attempts_max, backoff_ticks)| ClientConfig {
            timeout_ticks,
            attempts_max,
            backoff_ticks,
            key_on_retry: KeyOnRetry::SameKey,
        },
    );
    let api = (LEASE_TICKS_MIN..=10_000, RETENTION_TICKS_MIN..=10_000, any::<bool>()).prop_map(
        |(lease_ticks, retention_ticks, store_failures)| ApiConfig {
            lease_ticks,
            retention_ticks,
            failure_policy: if store_failures {
                FailurePolicy::StoreAndReplay
            } else {
                FailurePolicy::ReleaseKey
            },
        },
    );
    let consumers = (INSTANCES_MIN..=3, 1u64..=40, RETENTION_TICKS_MIN..=10_000).prop_map(
        |(instances, visibility_timeout_ticks, inbox_retention_ticks)| ConsumerSetup {
            instances,
            visibility_timeout_ticks,
            deliveries_max: DELIVERIES_MAX,
            inbox_retention_ticks,
        },
    );
    let rest = (1usize..=16, 0u32..=50_000);
    (9i64..=20, client, api, consumers, rest).prop_map(
        |(stock_per_sku, client, api, consumers, (batch_size_max, early))| WorldConfig {
            stock_per_sku,
            client,
            api,
            consumers,
            relay: RelayConfig { batch_size_max },
            retention_job: RetentionJobConfig { enabled: false },
            schedule: ScheduleConfig { early_clock_advance_per_million: early },
        },
    )
}

/// A scenario of `shape` (see [`scenario`]) in a world drawn by [`world_config`].
pub fn configured_scenario(shape: ScenarioShape) -> impl Strategy<Value = Scenario> {
    (scenario(shape), world_config()).prop_map(|(scenario, world)| world.apply_to(scenario))
}

/// The cases fuzzed from one lesson, `base`: any subsequence of its injections (in order),
/// random fault rates for the classes it names ([`Scenario::fault_classes`]), and any
/// simulator seed. Shrinks to the fewest injections, no random faults and seed 0. The CLI's
/// `fuzz` and the page's fuzz panel draw from it.
pub fn lesson_cases(base: Scenario) -> impl Strategy<Value = FuzzCase> {
    let injections = base.injections.clone();
    let count = injections.len();
    let classes = base.fault_classes();
    (proptest::sample::subsequence(injections, 0..=count), fault_rates(classes), seed()).prop_map(
        move |(injections, rates, seed)| {
            let mut scenario = base.clone();
            scenario.injections = injections;
            scenario.fault_rates = rates;
            FuzzCase { scenario, seed }
        },
    )
}
