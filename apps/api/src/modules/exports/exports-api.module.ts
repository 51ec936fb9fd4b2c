import { Module } from '@nestjs/common';
import { ExportsModule } from '@gateway/domain/exports';
import { ExportsController } from './exports.controller';

@Module({ imports: [ExportsModule], controllers: [ExportsController] })
export class ExportsApiModule {}
