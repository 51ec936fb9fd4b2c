/** All "now" goes through a Clock so tests and the sandbox can move time. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests set and advance explicitly. */
export class ManualClock extends Clock {
  constructor(private current: Date = new Date()) {
    super();
  }
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(to: Date): void {
    this.current = new Date(to.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
