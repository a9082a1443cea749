/** A stored waitlist entry; dates are the business's calendar days, `YYYY-MM-DD`. */
export interface WaitlistEntryRecord {
  id: string;
  clientId: string;
  serviceId: string;
  from: string;
  to: string;
  note: string | null;
  createdAt: Date;
}

/** What a caller asks for: the contract's WaitlistJoinRequest. */
export interface NewWaitlistEntry {
  clientId: string;
  serviceId: string;
  from: string;
  to: string;
  note?: string;
}
