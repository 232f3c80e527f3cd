//! The macros that turn [`super`]'s one line per algorithm into the registry
//! list, the configuration and instance enums, and their dispatch.

/// Dispatches `$call` on the algorithm inside an [`AnyAlgorithm`], `$none`
/// for a port without one.
macro_rules! dispatch {
    ($self:expr, [$($(#[$cfg:meta])? $variant:ident),*], $a:ident => $call:expr, $none:expr) => {
        match $self {
            AnyAlgorithm::None => $none,
            $($(#[$cfg])? AnyAlgorithm::$variant($a) => $call,)*
        }
    };
}

/// Builds, from one line per algorithm, the registry list `ALGORITHMS`, the
/// configuration enum `AlgorithmConfig`, the instance enum `AnyAlgorithm` and
/// their dispatch. Dispatched by `match`, not through `dyn`: the hooks run
/// for every cell at every port, and a direct call can be inlined (smoltcp's
/// `AnyController` does the same).
///
/// A line may carry doc comments and then one `#[cfg(…)]`, which is applied
/// everywhere the line expands to (the worked example of docs/architecture.md
/// is a line compiled for the unit tests only).
macro_rules! algorithms {
    ($($(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $variant:ident($alg:ty, $config:ty)),* $(,)?) => {
        /// Every algorithm a port can run: its registration (`kind` names,
        /// parameters, reader), in the order the `kind` menu lists them.
        pub static ALGORITHMS: &[Registered<AlgorithmConfig>] =
            &[Registered::of::<NoAlgorithm>(), $($(#[cfg($cfg)])? Registered::of::<$config>()),*];

        /// A port's algorithm as a scenario configures it.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AlgorithmConfig {
            None,
            $($(#[doc = $doc])* $(#[cfg($cfg)])? $variant($config),)*
        }

        /// Every algorithm a port can run.
        ///
        /// Boxed: an algorithm's state is a few hundred bytes, and inline it
        /// made every port that large, the hosts' ports too, which have none.
        /// With hundreds of VCs, each with ports of its own, the ports then
        /// outgrew the cache; a port is now the part that every
        /// cell passing it reads.
        #[derive(Clone, Debug)]
        pub enum AnyAlgorithm {
            /// No feedback: the port only queues and forwards (hosts, plain ports).
            None,
            $($(#[doc = $doc])* $(#[cfg($cfg)])? $variant(Box<$alg>),)*
        }

        impl AlgorithmConfig {
            /// The algorithm instance for a port, before its members are known
            /// ([`AnyAlgorithm::set_members`]).
            pub fn build(&self) -> AnyAlgorithm {
                match self {
                    AlgorithmConfig::None => AnyAlgorithm::None,
                    $($(#[cfg($cfg)])? AlgorithmConfig::$variant(c) => {
                        AnyAlgorithm::$variant(Box::new(<$alg as Algorithm>::build(c)))
                    })*
                }
            }
        }

        impl AnyAlgorithm {
            pub fn name(&self) -> &'static str {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.name(), "none")
            }

            /// Tells the algorithm before the run which loops' forward cells can
            /// pass its port (ascending), so that per-VC state and work are
            /// sized by them.
            pub fn set_members(&mut self, members: Vec<u32>) {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.set_members(members), ())
            }

            /// Takes the knobs of `other` (built from an edited scenario) while
            /// keeping this algorithm's measurements; false when the kind changed
            /// and the port must be rebuilt.
            pub fn reconfigure_from(&mut self, other: &AnyAlgorithm) -> bool {
                match (self, other) {
                    (AnyAlgorithm::None, AnyAlgorithm::None) => true,
                    $($(#[cfg($cfg)])? (AnyAlgorithm::$variant(a), AnyAlgorithm::$variant(b)) => {
                        a.reconfigure(b);
                        true
                    })*
                    _ => false,
                }
            }
        }

        impl SwitchAlgorithm for AnyAlgorithm {
            #[inline]
            fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.on_arrival(port, cell), ())
            }
            #[inline]
            fn on_backward_rm(&mut self, port: &PortView, cell: &mut Cell) {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.on_backward_rm(port, cell), ())
            }
            #[inline]
            fn on_departure(&mut self, port: &PortView, cell: &mut Cell) {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.on_departure(port, cell), ())
            }
            fn on_setup(&mut self, port: &PortView, vc: u32, setup: &mut Setup) {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.on_setup(port, vc, setup), ())
            }
            #[inline]
            fn sees_departures(&self) -> bool {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.sees_departures(), false)
            }
            fn supports_setup(&self) -> bool {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.supports_setup(), false)
            }
            fn first_tick(&self, now: SimTime) -> Option<SimTime> {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.first_tick(now), None)
            }
            fn on_tick(&mut self, port: &PortView) -> Option<SimTime> {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.on_tick(port), None)
            }
            fn abr_capacity_cps(&self, link_cps: f64) -> f64 {
                dispatch!(self, [$($(#[cfg($cfg)])? $variant),*], a => a.abr_capacity_cps(link_cps), link_cps)
            }
        }
    };
}
