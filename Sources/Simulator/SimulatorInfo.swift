/// Placeholder so the target builds until the simulator lands; replaced by the real files.
enum SimulatorInfo {}
